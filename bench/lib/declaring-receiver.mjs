// The receiver of the listen bench: a bare node:http server that answers GET /about with a v3
// declaration of every flag (discovery runs through a listener when it attaches) and 200 to
// everything else, as a separate process so it does not share the event loop with the workbench.
import http from "node:http";

const ABOUT = JSON.stringify({
  version: "3.0",
  allowsMonitoring: false,
  supports: {
    incident: {
      created: true,
      closed: true,
      changed: true,
      labelChanged: true,
      summaryChanged: true,
      callSignChanged: true,
    },
  },
});
const port = Number(process.env.PORT);
http
  .createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(req.url === "/about" ? ABOUT : "{}");
    });
  })
  .listen(port, "127.0.0.1");
