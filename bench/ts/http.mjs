// http.mjs serves greet and create_ticket with the TypeScript SDK over
// Streamable HTTP at http://$MCPGEN_BENCH_ADDR/mcp, the way the SDK's own
// examples do, with createMcpExpressApp (Express, its JSON body parser and
// the Host check of a loopback server):
//
//   node http.mjs            stateless, as simpleStatelessStreamableHttp.ts:
//                            a new McpServer and a new
//                            StreamableHTTPServerTransport (sessionIdGenerator
//                            undefined) for every request; a stateless
//                            transport refuses a second request.
//   node http.mjs sessions   sessions, as simpleStreamableHttp.ts: initialize
//                            creates a transport (sessionIdGenerator
//                            randomUUID) and its McpServer, kept by session id
//                            until DELETE.
//
// Both answer application/json (enableJsonResponse), as mcpgen does, rather
// than a one-event text/event-stream.
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { greet, createTicket } from "./tools.mjs";

const sessions = process.argv[2] === "sessions";
const [host, port] = (process.env.MCPGEN_BENCH_ADDR ?? "127.0.0.1:3000").split(":");

function newServer() {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  for (const t of [greet, createTicket]) {
    server.registerTool(t.name, { description: t.description, inputSchema: t.shape }, t.handler);
  }
  return server;
}

function jsonRpcError(res, status, message) {
  res.status(status).json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
}

const app = createMcpExpressApp({ host });

if (!sessions) {
  app.post("/mcp", async (req, res) => {
    const server = newServer();
    try {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
      res.on("close", () => {
        transport.close();
        server.close();
      });
    } catch (err) {
      console.error("Error handling MCP request:", err);
      if (!res.headersSent) jsonRpcError(res, 500, "Internal server error");
    }
  });
  const notAllowed = (req, res) => jsonRpcError(res, 405, "Method not allowed.");
  app.get("/mcp", notAllowed);
  app.delete("/mcp", notAllowed);
} else {
  const transports = {};
  app.post("/mcp", async (req, res) => {
    const id = req.headers["mcp-session-id"];
    try {
      let transport;
      if (id && transports[id]) {
        transport = transports[id];
      } else if (!id && isInitializeRequest(req.body)) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (sid) => {
            transports[sid] = transport;
          },
        });
        transport.onclose = () => {
          if (transport.sessionId) delete transports[transport.sessionId];
        };
        await newServer().connect(transport);
      } else if (id) {
        return jsonRpcError(res, 404, "Session not found");
      } else {
        return jsonRpcError(res, 400, "Bad Request: No valid session ID provided");
      }
      await transport.handleRequest(req, res, req.body);
    } catch (err) {
      console.error("Error handling MCP request:", err);
      if (!res.headersSent) jsonRpcError(res, 500, "Internal server error");
    }
  });
  const bySession = async (req, res) => {
    const id = req.headers["mcp-session-id"];
    if (!id || !transports[id]) return jsonRpcError(res, id ? 404 : 400, "Invalid or missing session ID");
    await transports[id].handleRequest(req, res);
  };
  app.get("/mcp", bySession);
  app.delete("/mcp", bySession);
}

const listener = app.listen(Number(port), host, (err) => {
  if (err) {
    console.error(err);
    process.exit(1);
  }
});
process.on("SIGTERM", () => {
  listener.close();
  process.exit(0);
});
