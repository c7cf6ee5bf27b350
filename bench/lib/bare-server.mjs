// The machine's ceiling for a JSON route: a bare node:http handler answering
// the same discovery document the workbench serves.
import http from "node:http";

const port = Number(process.env.PORT);
const origin = `http://localhost:${port}`;
const body = JSON.stringify({
  issuer: origin,
  jwks_uri: `${origin}/.well-known/jwks.json`,
  token_endpoint: `${origin}/connect/token`,
  grant_types_supported: ["client_credentials"],
  response_types_supported: ["code"],
  subject_types_supported: ["public"],
  id_token_signing_alg_values_supported: ["RS256"],
});
http
  .createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
  })
  .listen(port, "127.0.0.1");
