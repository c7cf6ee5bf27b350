// The receiver of the webhook bench: a bare node:http server that reads the
// body and answers 200, as a separate process so it does not share the event
// loop with the workbench under test.
import http from "node:http";

const port = Number(process.env.PORT);
http
  .createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  })
  .listen(port, "127.0.0.1");
