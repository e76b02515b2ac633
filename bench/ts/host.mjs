// host.mjs is the TypeScript Agent SDK host of the control protocol
// benchmark: query() from @anthropic-ai/claude-agent-sdk with an in-process
// server built by createSdkMcpServer() and tool(), serving greet and
// create_ticket. The CLI it spawns is the benchmark's stand-in, set with
// pathToClaudeCodeExecutable; the stand-in drives the tool calls, times
// them and writes its measurements to MCPGEN_STANDIN_OUT (inherited).
//
//   node host.mjs <path to cli-standin>
import { query, createSdkMcpServer, tool } from "@anthropic-ai/claude-agent-sdk";
import { greet, createTicket } from "./tools.mjs";

const standin = process.argv[2];
if (!standin) {
  console.error("usage: node host.mjs <path to cli-standin>");
  process.exit(2);
}

const bench = createSdkMcpServer({
  name: "bench",
  version: "1.0.0",
  tools: [greet, createTicket].map((t) => tool(t.name, t.description, t.shape, t.handler)),
});

let result;
for await (const message of query({
  prompt: "Greet Ada, then file a bug ticket.",
  options: {
    pathToClaudeCodeExecutable: standin,
    mcpServers: { bench },
    allowedTools: ["mcp__bench__greet", "mcp__bench__create_ticket"],
    stderr: (data) => process.stderr.write(data),
  },
})) {
  if (message.type === "result") {
    result = message;
  }
}
if (!result || result.is_error) {
  console.error("host.mjs: no successful result:", JSON.stringify(result));
  process.exit(1);
}
