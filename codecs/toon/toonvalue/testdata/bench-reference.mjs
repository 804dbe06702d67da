// Times the reference TOON implementation (@toon-format/toon) on a JSON
// document, for comparison with BenchmarkEncode/BenchmarkDecode.
//
// Usage (see README.md in this directory):
//   go test -run TestWriteBenchDocument -bench-doc /tmp/doc.json ./codecs/toon
//   npm install --prefix /tmp/toon-ref @toon-format/toon@4.4.0
//   node codecs/toon/testdata/bench-reference.mjs /tmp/doc.json /tmp/toon-ref [rounds]
//
// It reports, for encode(JSON.parse(doc)) and decode(encode(...)), the
// minimum and median time of one call over the rounds (after warm-up).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'

const [docPath, prefix = '.', roundsArg = '40'] = process.argv.slice(2)
if (!docPath) {
  console.error('usage: node bench-reference.mjs <doc.json> [npm-prefix] [rounds]')
  process.exit(2)
}
const require = createRequire(path.join(path.resolve(prefix), 'package.json'))
const toon = await import(pathToFileURL(require.resolve('@toon-format/toon')).href)
const version = JSON.parse(readFileSync(path.join(path.dirname(require.resolve('@toon-format/toon')), '..', 'package.json'), 'utf8')).version

const jsonText = readFileSync(docPath, 'utf8')
const value = JSON.parse(jsonText)
const rounds = Number(roundsArg)

function time(fn) {
  for (let i = 0; i < 5; i++) fn() // warm-up
  const samples = []
  for (let i = 0; i < rounds; i++) {
    const start = performance.now()
    fn()
    samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  return { min: samples[0], median: samples[Math.floor(samples.length / 2)] }
}

const text = toon.encode(value)
const enc = time(() => toon.encode(value))
const dec = time(() => toon.decode(text))
const mb = Buffer.byteLength(jsonText) / 1e6
console.log(`@toon-format/toon ${version}, node ${process.version}, document ${Buffer.byteLength(jsonText)} bytes of JSON, ${Buffer.byteLength(text)} bytes of TOON`)
console.log(`encode: min ${(enc.min).toFixed(2)} ms, median ${(enc.median).toFixed(2)} ms (${(mb / enc.min * 1000).toFixed(1)} MB/s of JSON at min)`)
console.log(`decode: min ${(dec.min).toFixed(2)} ms, median ${(dec.median).toFixed(2)} ms (${(mb / dec.min * 1000).toFixed(1)} MB/s of JSON at min)`)
