// The portal login form of /connect/authorize: plain server-rendered HTML (no
// script), labelled fields, an error announced with role=alert. The authorization
// request travels in hidden fields so the POST can finish it.
import { html } from "hono/html";

export type AuthorizeParams = {
  client_id: string;
  redirect_uri: string;
  scope: string;
  state: string;
  code_challenge: string;
  code_challenge_method: string;
};

/** `portal`: dispatchers (with the dev password hint when it is accepted); `workbench`: workbench members, own passwords. */
export function renderLoginForm(options: {
  params: AuthorizeParams;
  clientName: string;
  kind?: "portal" | "workbench";
  devPassword?: boolean;
  error?: string;
  username?: string;
}) {
  const { params, clientName, error, username, kind = "portal", devPassword = true } = options;
  const title = kind === "workbench" ? "Sign in to the workbench" : "Sign in to the portal";
  const hint =
    kind === "workbench"
      ? html`Use your workbench member name and password.`
      : devPassword
        ? html`Development password for every seeded user: <code>workbench</code>.`
        : "";
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>${title} · Incident Platform</title>
        <style>
          body {
            font-family: system-ui, sans-serif;
            background: #f1f5f9;
            color: #0f172a;
            display: grid;
            place-items: center;
            min-height: 100vh;
            margin: 0;
          }
          main {
            background: #fff;
            border: 1px solid #cbd5e1;
            border-radius: 0.5rem;
            padding: 2rem;
            width: min(22rem, 90vw);
          }
          h1 {
            font-size: 1.25rem;
            margin: 0 0 0.25rem;
          }
          p {
            color: #475569;
            font-size: 0.875rem;
            margin: 0 0 1rem;
          }
          label {
            display: block;
            font-size: 0.875rem;
            font-weight: 600;
            margin: 0.75rem 0 0.25rem;
          }
          input {
            width: 100%;
            box-sizing: border-box;
            padding: 0.5rem;
            border: 1px solid #64748b;
            border-radius: 0.375rem;
            font-size: 1rem;
          }
          button {
            margin-top: 1.25rem;
            width: 100%;
            padding: 0.6rem;
            border: 0;
            border-radius: 0.375rem;
            background: #0f172a;
            color: #fff;
            font-weight: 600;
            font-size: 1rem;
            cursor: pointer;
          }
          button:focus-visible,
          input:focus-visible {
            outline: 3px solid #f97316;
            outline-offset: 2px;
          }
          [role="alert"] {
            color: #b91c1c;
            font-size: 0.875rem;
            margin-top: 0.75rem;
          }
        </style>
      </head>
      <body>
        <main>
          <h1>${title}</h1>
          <p>${clientName} asks you to sign in. ${hint}</p>
          <form method="post" action="/connect/authorize">
            ${Object.entries(params).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`)}
            <label for="username">Username</label>
            <input id="username" name="username" autocomplete="username" required value="${username ?? ""}" autofocus />
            <label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required />
            ${error ? html`<div role="alert">${error}</div>` : ""}
            <button type="submit">Sign in</button>
          </form>
        </main>
      </body>
    </html>`;
}

export function renderAuthorizeError(message: string) {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>Sign-in request refused</title>
      </head>
      <body>
        <main>
          <h1>Sign-in request refused</h1>
          <p role="alert">${message}</p>
        </main>
      </body>
    </html>`;
}
