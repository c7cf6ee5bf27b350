// The names a shared workbench's page and its server share for the session's key
// (docs/decisions/0071): where the page keeps it, which header carries it, and where the sign-in
// leaves its state in the tab. No imports: the browser's bundle reads this file too.

/** The header every data call and state change carries the key in. */
export const SESSION_KEY_HEADER = "x-workbench-session-key";
/** Where the page that signed in keeps the key: the origin's own storage, which no other port can read. */
export const SESSION_KEY_STORAGE = "workbench.sessionKey";
/** What the sign-in start page leaves in the tab, and the callback page looks for. */
export const SIGNIN_STATE_STORAGE = "workbench.signinState";
