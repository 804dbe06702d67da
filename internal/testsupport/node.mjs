// Runs a reference implementation for StartNode (npm.go).
//
// Usage: node --input-type=module -e "$(cat node.mjs)" <npm-prefix> <handlers.mjs>
//   <npm-prefix> holds the package's node_modules; <handlers.mjs>'s default
//   export, given load(name), which imports an installed package, returns
//   an object of handlers, one per op, each turning a request into the
//   members of its answer.
//
// Protocol: one JSON request per line on stdin, one JSON answer per line on
// stdout, in order.
//   {"op":OP, ...} -> {"ok":true, ...handlers[OP](request)}
//   failure        -> {"ok":false,"error":"..."}
import { createRequire } from 'node:module'
import path from 'node:path'
import readline from 'node:readline'
import { pathToFileURL } from 'node:url'

const [prefix, script] = process.argv.slice(-2).map(p => path.resolve(p))
const require = createRequire(path.join(prefix, 'package.json'))
const load = name => import(pathToFileURL(require.resolve(name)).href)
const handlers = await (await import(pathToFileURL(script).href)).default(load)

for await (const line of readline.createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let answer
  try {
    const request = JSON.parse(line)
    const handle = handlers[request.op]
    if (!handle) throw new Error(`unknown op ${request.op}`)
    answer = { ok: true, ...handle(request) }
  } catch (error) {
    answer = { ok: false, error: String(error?.message ?? error) }
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`)
}
