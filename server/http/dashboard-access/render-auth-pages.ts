// The dashboard's own sign-in pages outside Next (setup, signed out, errors):
// plain server-rendered HTML, no script, labelled fields, errors with role=alert.
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

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
