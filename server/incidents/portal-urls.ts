// Portal URLs the service hands out (openUrl, chat, live video, the SMS link).
// Receivers use them as delivered (spec: "never build portal URLs").
export const incidentOpenUrl = (portalUrl: string, incidentId: string) => `${portalUrl}/portal/incidents/${incidentId}`;
export const chatPortalUrl = (portalUrl: string, incidentId: string) =>
  `${incidentOpenUrl(portalUrl, incidentId)}/chat`;
export const liveVideoPortalUrl = (portalUrl: string, incidentId: string) =>
  `${incidentOpenUrl(portalUrl, incidentId)}/live-video`;
/** The link of a simulated location SMS; the simulator "opens" it. */
export const locationSmsLink = (portalUrl: string, smsId: string) => `${portalUrl}/locate/${smsId}`;
