// The TypeScript SDK's (@blackwell-systems/gcf) answers to generic-profile
// encode and decode requests, for reference_sdk_test.go, run by
// internal/testsupport/node.mjs:
//   {"op":"encode","json":"<JSON text>"} -> {"gcf":"..."}
//   {"op":"decode","gcf":"<GCF text>"}   -> {"json":"<JSON text>"}
//
// encode parses the JSON with the SDK's order-preserving parser
// (parseJSONOrdered: objects become Maps, so keys keep their textual
// order). decode writes the SDK's value back as JSON keeping the order of
// every Map (JSON.stringify would write a Map as {}).

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

export default async function (load) {
  const gcf = await load('@blackwell-systems/gcf')
  return {
    encode: r => ({ gcf: gcf.encodeGeneric(gcf.parseJSONOrdered(r.json)) }),
    decode: r => ({ json: toJSON(gcf.decodeGeneric(r.gcf)) }),
  }
}
