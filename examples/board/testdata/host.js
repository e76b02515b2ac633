// host.js is the MCP Apps host of the browser test (browser_test.go),
// bundled for the page by esbuild: the official client connects to the
// server over Streamable HTTP, declaring the extension; the tool's view is
// read, rendered in a sandbox proxy of another origin whose CSP is the
// view's, and connected through @modelcontextprotocol/ext-apps' AppBridge,
// which relays the view's tools/call to the server. window.__host records
// what happened, for the driver.
import { AppBridge, PostMessageTransport, RESOURCE_MIME_TYPE, getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const host = (window.__host = { log: [], errors: [], calls: [], ready: false });
const hostInfo = { name: "mcpgen-browser-host", version: "1.0.0" };

function log(line) {
  host.log.push(line);
  document.getElementById("log").textContent = host.log.join("\n");
}

// appCallable reports whether a view may call tool: hosts refuse the
// view's calls of tools whose visibility leaves out "app".
function appCallable(tool) {
  return (tool?._meta?.ui?.visibility ?? ["model", "app"]).includes("app");
}

async function main() {
  const params = new URLSearchParams(location.search);
  const client = new Client(hostInfo, {
    capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  host.serverCapabilities = client.getServerCapabilities();
  log(`connected to ${client.getServerVersion()?.name}: extensions ${JSON.stringify(host.serverCapabilities.extensions ?? {})}`);

  const { tools } = await client.listTools();
  host.tools = tools;
  const tool = tools.find((t) => t.name === params.get("tool"));
  const uri = getToolUiResourceUri(tool);
  log(`tools: ${tools.map((t) => t.name).join(", ")}; ${tool.name} links ${uri}`);

  const { contents } = await client.readResource({ uri });
  const view = contents[0];
  if (view.mimeType !== RESOURCE_MIME_TYPE) {
    throw new Error(`${uri} is ${view.mimeType}, not ${RESOURCE_MIME_TYPE}`);
  }
  const ui = view._meta?.ui ?? {};
  host.view = { uri: view.uri, mimeType: view.mimeType, ui };
  log(`read ${uri}: ${view.text.length} bytes of ${view.mimeType}, csp ${JSON.stringify(ui.csp ?? {})}`);

  // The model's call of the tool: its result goes to the view.
  const result = client.callTool({ name: tool.name, arguments: {} });

  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
  const proxy = new URL(params.get("sandbox"));
  proxy.searchParams.set("csp", JSON.stringify(ui.csp ?? {}));
  const proxyReady = new Promise((resolve) => {
    window.addEventListener("message", function ready(event) {
      if (event.source === frame.contentWindow && event.data?.method === "ui/notifications/sandbox-proxy-ready") {
        window.removeEventListener("message", ready);
        resolve();
      }
    });
  });
  frame.src = proxy.href;
  document.getElementById("frame").append(frame);
  await proxyReady;

  const bridge = new AppBridge(client, hostInfo, { serverTools: {}, serverResources: {}, logging: {} }, {
    hostContext: { theme: "light", displayMode: "inline", platform: "web" },
  });
  const initialized = new Promise((resolve) => bridge.addEventListener("initialized", resolve));
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  // AppBridge relays every tools/call of the view to the server; a host
  // checks first that the view may call the tool.
  bridge.oncalltool = async (params) => {
    host.calls.push(params);
    const called = tools.find((t) => t.name === params.name);
    if (!appCallable(called)) {
      throw new Error(`${params.name} may not be called by a view`);
    }
    log(`the view calls ${params.name} ${JSON.stringify(params.arguments ?? {})}`);
    return client.callTool(params);
  };
  await bridge.sendSandboxResourceReady({ html: view.text, csp: ui.csp, permissions: ui.permissions });
  await initialized;
  log("the view is initialized");
  await bridge.sendToolInput({ arguments: {} });
  host.toolResult = await result;
  await bridge.sendToolResult(host.toolResult);
  log(`${tool.name} answered: ${host.toolResult.content.find((c) => c.type === "text")?.text}`);
  host.ready = true;
}

main().catch((err) => {
  host.errors.push(String(err?.stack ?? err));
  log(`error: ${err}`);
});
