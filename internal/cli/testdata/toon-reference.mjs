// Converts JSON documents to TOON with the reference implementation
// (@toon-format/toon), for toon_reference_test.go.
//
// Usage: node toon-reference.mjs <npm-prefix>
//   <npm-prefix> holds node_modules/@toon-format/toon.
//
// Reads one request per line on stdin and answers each on one line of
// stdout, in order:
//   {"json": TEXT, "delimiter": D, "indent": N} -> {"ok": true, "toon": TEXT}
//     the TOON of JSON.parse(TEXT)
//   {"toon": TEXT, "indent": N}                 -> {"ok": true, "json": TEXT}
//     JSON.stringify(decode(TEXT), null, N), as the reference CLI writes it
//   failure                                     -> {"ok": false, "error": MESSAGE}
import { createRequire } from 'node:module'
import path from 'node:path'
import readline from 'node:readline'
import { pathToFileURL } from 'node:url'

const require = createRequire(path.join(path.resolve(process.argv[2] ?? '.'), 'package.json'))
const { encode, decode } = await import(pathToFileURL(require.resolve('@toon-format/toon')).href)

for await (const line of readline.createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let answer
  try {
    const req = JSON.parse(line)
    if (req.toon !== undefined) {
      answer = { ok: true, json: JSON.stringify(decode(req.toon, { indentSize: req.indent }), null, req.indent) }
    } else {
      answer = { ok: true, toon: encode(JSON.parse(req.json), { delimiter: req.delimiter, indentSize: req.indent }) }
    }
  } catch (err) {
    answer = { ok: false, error: String(err?.message ?? err) }
  }
  process.stdout.write(JSON.stringify(answer) + '\n')
}
