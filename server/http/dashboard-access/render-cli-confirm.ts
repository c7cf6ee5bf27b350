// The confirm page of `workbench login` (decision 0053): what is being authorised, for whom, where
// the code goes, the token's role (the member's own, or one below it), and Authorize / Cancel as one
// same-origin form. Its one script (nonced) puts the session's key in the form: the cookie alone does
// not authorise (decision 0071).

const ROLE_HINTS: Record<Role, string> = {
  viewer: "read only",
  integrator: "also drive tests",
  admin: "also configure the workbench",
};

/** The roles a member may give the token: their own and those below it, their own chosen. */
function roleChoice(role: Role) {
  const allowed = ROLES.filter((r) => roleAllows(role, r));
  if (allowed.length === 1) return html`<input type="hidden" name="role" value="${role}" />`;
  return html`<fieldset>
    <legend>Role of the token</legend>
    ${allowed.map(
      (r) =>
        html`<label class="choice"
          ><input type="radio" name="role" value="${r}" ${r === role ? "checked" : ""} /> ${r}
          <span>(${ROLE_HINTS[r]})</span></label
        >`,
    )}
  </fieldset>`;
}
import { html } from "hono/html";
import type { TCliAuthorizeRequest } from "../../workbench/access/cli-grants.ts";
import { ROLES, roleAllows, type Role } from "../../workbench/access/roles.ts";
import { page } from "./render-auth-pages.ts";
import { SESSION_KEY_STORAGE } from "../../workbench/access/session-key-names.ts";

export function renderCliConfirm(options: {
  request: TCliAuthorizeRequest;
  member: string;
  role: Role;
  lifetimeDays: number;
  nonce: string;
}) {
  const { request, member, role, lifetimeDays, nonce } = options;
  return page(
    "Authorize the CLI",
    html`<h1>Authorize the Workbench CLI?</h1>
      <p>
        <strong>Workbench CLI on ${request.hostname}</strong> wants an API token as <strong>${member}</strong>, role
        <strong>${role}</strong>.
      </p>
      <dl>
        <dt>Computer</dt>
        <dd>${request.hostname}</dd>
        <dt>Acts as</dt>
        <dd>${member}</dd>
        <dt>Expires</dt>
        <dd>in ${lifetimeDays} days (or at <code>workbench logout</code>)</dd>
        <dt>Sent to</dt>
        <dd>127.0.0.1:${request.port} on this computer</dd>
      </dl>
      <form method="post" action="/auth/cli">
        <input type="hidden" name="port" value="${String(request.port)}" />
        <input type="hidden" name="state" value="${request.state}" />
        <input type="hidden" name="code_challenge" value="${request.code_challenge}" />
        <input type="hidden" name="hostname" value="${request.hostname}" />
        <input type="hidden" name="session_key" id="session-key" value="" />
        ${roleChoice(role)}
        <p>
          Authorize only if you just ran <code>workbench login</code> yourself. An admin can revoke the token on the
          Admin page.
        </p>
        <button type="submit" name="decision" value="authorize">Authorize</button
        ><button type="submit" name="decision" value="cancel" class="secondary">Cancel</button>
      </form>
      <script nonce="${nonce}">
        try {
          document.getElementById("session-key").value = localStorage.getItem("${SESSION_KEY_STORAGE}") ?? "";
        } catch {}
      </script>`,
  );
}
