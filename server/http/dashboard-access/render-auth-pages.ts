// The dashboard's own sign-in pages outside Next (setup, signed out, errors):
// plain server-rendered HTML, labelled fields, errors with role=alert. Only the sign-in start, the
// callback and sign-out run a script (nonced): they keep the session key in this origin's storage.
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { SESSION_KEY_STORAGE, SIGNIN_STATE_STORAGE } from "../../workbench/access/session-key-names.ts";

const STYLE = `body{font-family:system-ui,sans-serif;background:#f1f5f9;color:#0f172a;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;border:1px solid #cbd5e1;border-radius:.5rem;padding:2rem;width:min(24rem,90vw)}
h1{font-size:1.25rem;margin:0 0 .5rem}p{color:#475569;font-size:.875rem}
label{display:block;font-size:.875rem;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #64748b;border-radius:.375rem;font-size:1rem}
button,a.button{display:inline-block;margin-top:1.25rem;padding:.6rem 1rem;border:0;border-radius:.375rem;background:#0f172a;color:#fff;font-weight:600;font-size:1rem;cursor:pointer;text-decoration:none}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #f97316;outline-offset:2px}
[role=alert]{color:#b91c1c;font-size:.875rem;margin-top:.75rem}
button.secondary{background:#fff;color:#0f172a;border:1px solid #64748b;margin-left:.5rem}
fieldset{border:1px solid #cbd5e1;border-radius:.375rem;margin:1rem 0 0;padding:.5rem .75rem}legend{font-size:.875rem;font-weight:600;padding:0 .25rem}
label.choice{display:flex;gap:.5rem;align-items:center;font-weight:600;margin:.25rem 0}label.choice input{width:auto}label.choice span{font-weight:400;color:#475569}
dl{font-size:.875rem;display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem;margin:1rem 0}dt{color:#475569}dd{margin:0;font-weight:600;overflow-wrap:anywhere}`;

export function page(title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>) {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>${title} · Incident Platform Workbench</title>
        <style>
          ${STYLE}
        </style>
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html>`;
}

export function renderMessagePage(options: { title: string; message: string; link?: { href: string; label: string } }) {
  const { title, message, link } = options;
  return page(
    title,
    html`<h1>${title}</h1>
      <p role="status">${message}</p>
      ${link ? html`<a class="button" href="${link.href}">${link.label}</a>` : ""}`,
  );
}

export function renderSetupForm(options: { error?: string; username?: string } = {}) {
  return page(
    "First admin",
    html`<h1>Set up the first admin</h1>
      <p>
        Enter the one-time setup code the workbench printed in its terminal at start, and choose the first admin's name
        and password (at least 12 characters).
      </p>
      <form method="post" action="/auth/setup">
        <label for="code">Setup code</label><input id="code" name="code" autocomplete="one-time-code" required />
        <label for="username">Admin name</label
        ><input id="username" name="username" autocomplete="username" required value="${options.username ?? "admin"}" />
        <label for="password">Password</label
        ><input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required />
        ${options.error ? html`<div role="alert">${options.error}</div>` : ""}
        <button type="submit">Create the admin</button>
      </form>`,
  );
}

/** JSON for inside a <script>: nothing in it can close the element or end a line in old parsers. */
const scriptJson = (value: unknown) =>
  raw(JSON.stringify(value).replaceAll("<", "\\u003c").replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029"));

const NEEDS_SCRIPT = html`<noscript
  ><p role="alert">The workbench's sign-in needs JavaScript: turn it on for this site and reload.</p></noscript
>`;

/**
 * /auth/sign-in: remembers the sign-in's state in this tab (sessionStorage, this origin only), then
 * goes on to the identity server's form. The callback hands the session's key over only to the tab
 * that started the sign-in: a sign-in finished with a state another port planted (login CSRF by
 * cookie tossing) gives its key to nobody.
 */
export function renderSignInStart(options: { state: string; authorizeUrl: string; nonce: string }) {
  return page(
    "Signing in",
    html`<h1>Signing in…</h1>
      <p role="status">Opening the workbench's sign-in form.</p>
      ${NEEDS_SCRIPT}
      <script nonce="${options.nonce}">
        (() => {
          const d = ${scriptJson({ state: options.state, to: options.authorizeUrl, at: SIGNIN_STATE_STORAGE })};
          try {
            sessionStorage.setItem(d.at, d.state);
          } catch {}
          location.replace(d.to);
        })();
      </script>`,
  );
}

/**
 * /auth/callback: the session is made; its key goes to this tab's storage if this tab started the
 * sign-in, and the tab goes on to the page first asked for. Otherwise the key is dropped and the
 * page says why.
 */
export function renderSessionHandOver(options: { state: string; key: string; next: string; nonce: string }) {
  const data = {
    state: options.state,
    key: options.key,
    next: options.next,
    stateAt: SIGNIN_STATE_STORAGE,
    keyAt: SESSION_KEY_STORAGE,
  };
  return page(
    "Signing in",
    html`<h1 id="title">Signing in…</h1>
      <p role="status" id="status">Opening the workbench.</p>
      <p role="alert" id="refused" hidden>
        This sign-in was not started in this tab, or this browser keeps no storage for the workbench, so it was not
        completed. Start it again from the workbench's own page.
      </p>
      <a class="button" id="again" href="/auth/sign-in" hidden>Sign in again</a>
      ${NEEDS_SCRIPT}
      <script nonce="${options.nonce}">
        (() => {
          const d = ${scriptJson(data)};
          let ours = false;
          try {
            ours = sessionStorage.getItem(d.stateAt) === d.state;
            sessionStorage.removeItem(d.stateAt);
            if (ours) localStorage.setItem(d.keyAt, d.key);
          } catch {
            ours = false;
          }
          if (ours) return location.replace(d.next);
          document.getElementById("title").textContent = "Sign-in not completed";
          document.getElementById("status").hidden = true;
          document.getElementById("refused").hidden = false;
          document.getElementById("again").hidden = false;
        })();
      </script>`,
  );
}

/** After sign-out: the session's key is dropped from this origin's storage too. */
export function renderSignedOut(options: { nonce: string }) {
  return page(
    "Signed out",
    html`<h1>Signed out</h1>
      <p role="status">You are signed out of the workbench.</p>
      <a class="button" href="/auth/sign-in">Sign in</a>
      <script nonce="${options.nonce}">
        try {
          localStorage.removeItem(${scriptJson(SESSION_KEY_STORAGE)});
        } catch {}
      </script>`,
  );
}
