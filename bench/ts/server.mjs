// server.mjs serves greet and create_ticket (or, with the argument "many",
// the 200 tools of the start-up measurement) with the TypeScript SDK over
// stdio, as its documentation does: McpServer, registerTool with zod
// shapes, StdioServerTransport.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { greet, createTicket } from "./tools.mjs";

const many = process.argv[2] === "many";
const server = new McpServer({ name: many ? "many" : "bench", version: "1.0.0" });
if (many) {
  const { registerMany } = await import("./many.mjs");
  registerMany(server);
} else {
  for (const t of [greet, createTicket]) {
    server.registerTool(t.name, { description: t.description, inputSchema: t.shape }, t.handler);
  }
}
await server.connect(new StdioServerTransport());
