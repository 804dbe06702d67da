// An MCP client that is not graphwire's: the npm @modelcontextprotocol/sdk
// Client, driven line by line by a Go test.
//
//   node client.mjs stdio COMMAND [ARGS...]   # runs the server itself
//   node client.mjs http URL                  # streamable HTTP
//
// Each line on standard input is a request, answered by one line on
// standard output:
//   {"op":"list"}                                   -> {"tools":[...]}
//   {"op":"call","name":N,"arguments":{...}}        -> {"result":{...}}
// A failure is {"error":"..."}. The client closes at the end of input.
import readline from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, ...rest] = process.argv.slice(2);
let transport;
if (mode === "stdio" && rest.length > 0) {
  transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "inherit" });
} else if (mode === "http" && rest.length === 1) {
  transport = new StreamableHTTPClientTransport(new URL(rest[0]));
} else {
  console.error("usage: node client.mjs stdio COMMAND [ARGS...] | http URL");
  process.exit(2);
}

const client = new Client({ name: "wiremcp-node-client", version: "1.0.0" });
await client.connect(transport);
const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  let out;
  try {
    const req = JSON.parse(line);
    if (req.op === "list") {
      out = { tools: (await client.listTools()).tools };
    } else if (req.op === "call") {
      out = { result: await client.callTool({ name: req.name, arguments: req.arguments }) };
    } else {
      out = { error: `unknown op ${req.op}` };
    }
  } catch (e) {
    out = { error: String(e) };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}
await client.close();
