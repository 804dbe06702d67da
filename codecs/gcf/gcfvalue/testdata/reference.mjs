// Answers GCF generic-profile encode and decode requests with the
// TypeScript SDK (@blackwell-systems/gcf), for reference_test.go.
//
// Usage: node reference.mjs <npm-prefix>
//   where <npm-prefix> is a directory holding
//   node_modules/@blackwell-systems/gcf.
//
// Protocol: one JSON request per line on stdin, one JSON response per line
// on stdout, in order.
//   {"op":"encode","json":"<JSON text>"} -> {"ok":true,"gcf":"..."}
//   {"op":"decode","gcf":"<GCF text>"}   -> {"ok":true,"json":"<JSON text>"}
//   failure                              -> {"ok":false,"error":"..."}
//
// encode parses the JSON with the SDK's order-preserving parser
// (parseJSONOrdered: objects become Maps, so keys keep their textual
// order). decode writes the SDK's value back as JSON keeping the order of
// every Map (JSON.stringify would write a Map as {}).
import { createRequire } from 'node:module'
import path from 'node:path'
import readline from 'node:readline'
import { pathToFileURL } from 'node:url'

const prefix = path.resolve(process.argv[2] ?? '.')
const require = createRequire(path.join(prefix, 'package.json'))
const gcf = await import(pathToFileURL(require.resolve('@blackwell-systems/gcf')).href)

// toJSON writes a decoded value as JSON text. A number is written as
// JavaScript writes it (String), which is valid JSON for every finite
// number; a non-finite one, which no JSON can hold, is an error.
function toJSON(v) {
  if (v === null || v === undefined) return 'null'
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`decoded a non-finite number ${v}`)
    return String(v)
  }
  if (typeof v === 'string') return JSON.stringify(v)
  if (Array.isArray(v)) return `[${v.map(toJSON).join(',')}]`
  const entries = v instanceof Map ? [...v.entries()] : Object.entries(v)
  return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${toJSON(x)}`).join(',')}}`
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity })
for await (const line of rl) {
  let response
  try {
    const request = JSON.parse(line)
    switch (request.op) {
      case 'encode':
        response = { ok: true, gcf: gcf.encodeGeneric(gcf.parseJSONOrdered(request.json)) }
        break
      case 'decode':
        response = { ok: true, json: toJSON(gcf.decodeGeneric(request.gcf)) }
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
