// The machine's ceiling for a JSON POST: a bare node:http handler that reads
// the body, parses it and answers 201 with a small JSON document.
import http from "node:http";

const port = Number(process.env.PORT);
http
  .createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const point = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      res.writeHead(201, { "content-type": "application/json" });
      res.end(JSON.stringify({ location: { type: "Known", ...point, source: "Entered" } }));
    });
  })
  .listen(port, "127.0.0.1");
