// The reference implementation's (@toon-format/toon) answers to encode and
// decode requests, for reference_test.go and the wirebench toon tests, run
// by internal/testsupport/node.mjs:
//   {"op":"encode","json":"<JSON text>","options":{...}} -> {"toon":"..."}
//   {"op":"decode","toon":"<TOON text>","options":{...}} -> {"json":"<JSON text>"}
// A decode request with "space":N writes JSON.stringify(value, null, N), as
// the reference CLI does.
export default async function (load) {
  const toon = await load('@toon-format/toon')
  return {
    encode: r => ({ toon: toon.encode(JSON.parse(r.json), r.options) }),
    decode: r => ({ json: JSON.stringify(toon.decode(r.toon, r.options), null, r.space) }),
  }
}
