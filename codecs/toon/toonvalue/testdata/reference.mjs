// Answers TOON encode and decode requests with the reference implementation
// (@toon-format/toon), for reference_test.go and the wirebench toon tests.
//
// Usage: node reference.mjs <npm-prefix>
//   where <npm-prefix> is a directory holding node_modules/@toon-format/toon.
//
// Protocol: one JSON request per line on stdin, one JSON response per line on
// stdout, in order.
//   {"op":"encode","json":"<JSON text>","options":{...}} -> {"ok":true,"toon":"..."}
//   {"op":"decode","toon":"<TOON text>","options":{...}} -> {"ok":true,"json":"<JSON text>"}
//   failure                                              -> {"ok":false,"error":"..."}
// A decode request with "space":N writes JSON.stringify(value, null, N), as
// the reference CLI does.
import { createRequire } from 'node:module'
import path from 'node:path'
import readline from 'node:readline'
import { pathToFileURL } from 'node:url'

const prefix = path.resolve(process.argv[2] ?? '.')
const require = createRequire(path.join(prefix, 'package.json'))
const toon = await import(pathToFileURL(require.resolve('@toon-format/toon')).href)

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity })
for await (const line of rl) {
  let response
  try {
    const request = JSON.parse(line)
    switch (request.op) {
      case 'encode':
        response = { ok: true, toon: toon.encode(JSON.parse(request.json), request.options) }
        break
      case 'decode':
        response = { ok: true, json: JSON.stringify(toon.decode(request.toon, request.options), null, request.space) }
        break
      default:
        throw new Error(`unknown op ${request.op}`)
    }
  }
  catch (error) {
    response = { ok: false, error: String(error?.message ?? error) }
  }
  process.stdout.write(`${JSON.stringify(response)}\n`)
}
