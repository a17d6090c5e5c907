// The yardstick: a plain node:http server answering every request with fixed
// bytes (the body and headers our server produced for the workload).
import http from "node:http";

const port = Number(process.argv[2]);
let status = 200;
let headers: Record<string, string> = {};
let body = Buffer.alloc(0);

const server = http.createServer((req, res) => {
  if (req.url === "/__configure") {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const cfg = JSON.parse(Buffer.concat(chunks).toString());
      status = cfg.status;
      headers = cfg.headers;
      body = Buffer.from(cfg.body, "utf8");
      res.end("ok");
    });
    return;
  }
  req.resume();
  res.writeHead(status, { ...headers, "Content-Length": body.length });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => process.stdout.write("ready\n"));
