// schema-check.mjs: checks a JSON value against the work file's JSON Schema, in the browser.
// What it is: problemWith(value, schema) returns null when `value` obeys `schema`, else one sentence
// naming where it does not ("exercises.relu.solved must be true or false"). It knows the keywords the
// work file's schema (work-file.schema.json) uses, as JSON Schema 2020-12 defines them: type, const,
// enum, required, properties, additionalProperties, propertyNames, maxProperties, maxLength, pattern,
// minimum, maximum, anyOf and $ref to "#/$defs/...". A schema with any other keyword that constrains
// is refused (it throws), so the schema can never say more than this check enforces; the tests check
// the same files with CPython's `jsonschema` and expect the same verdicts.
// What it is not: a general JSON Schema validator, or the reading of a work file (work-file.mjs).

const ANNOTATIONS = new Set(["$schema", "$id", "title", "description", "$defs", "$comment", "examples"]);
const CHECKS = new Set(["type", "const", "enum", "required", "properties", "additionalProperties", "propertyNames",
  "maxProperties", "maxLength", "pattern", "minimum", "maximum", "anyOf", "$ref"]);
const TYPE_WORDS = { object: "an object", array: "a list", string: "a text", integer: "a whole number",
  number: "a number", boolean: "true or false", null: "null" };

const knownSchemas = new WeakSet();

/** null if `value` obeys `schema` (the root schema, whose $defs the $refs name), else what is wrong. */
export function problemWith(value, schema) {
  if (!knownSchemas.has(schema)) {
    refuseUnknownKeywords(schema);
    knownSchemas.add(schema);
  }
  return check(value, schema, schema, []);
}

/** Throw if `schema`, or any schema inside it, uses a keyword this check does not enforce. */
function refuseUnknownKeywords(schema) {
  if (typeof schema === "boolean") return;
  for (const keyword of Object.keys(schema)) {
    if (!ANNOTATIONS.has(keyword) && !CHECKS.has(keyword)) throw new Error(`schema-check.mjs does not know ${keyword}`);
  }
  const inner = [...Object.values(schema.properties ?? {}), ...Object.values(schema.$defs ?? {}), ...(schema.anyOf ?? []),
    ...[schema.additionalProperties, schema.propertyNames].filter((rule) => rule !== undefined)];
  inner.forEach(refuseUnknownKeywords);
}

function check(value, schema, root, path) {
  const at = path.length ? path.join(".") : "the file";
  if (schema.$ref !== undefined) {
    const problem = check(value, resolve(schema.$ref, root), root, path);
    if (problem) return problem;
  }
  if (schema.anyOf && !schema.anyOf.some((option) => check(value, option, root, path) === null)) {
    return check(value, schema.anyOf[0], root, path) ?? `${at} is not what it should be`;
  }
  if (schema.type !== undefined) {
    const types = [schema.type].flat();
    if (!types.some((type) => isType(value, type))) return `${at} must be ${types.map((type) => TYPE_WORDS[type]).join(" or ")}`;
  }
  if ("const" in schema && !sameJSON(value, schema.const)) return `${at} must be ${JSON.stringify(schema.const)}`;
  if (schema.enum && !schema.enum.some((option) => sameJSON(value, option))) {
    return `${at} must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(", ")}`;
  }
  if (typeof value === "string") return stringProblem(value, schema, at);
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return `${at} must be at least ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${at} must be at most ${schema.maximum}`;
  }
  if (isType(value, "object")) return objectProblem(value, schema, root, path, at);
  return null;
}

function stringProblem(value, schema, at) {
  // JSON Schema counts characters (code points), not UTF-16 units.
  if (schema.maxLength !== undefined && value.length > schema.maxLength && [...value].length > schema.maxLength) {
    return `${at} is longer than ${schema.maxLength} characters`;
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) return `${at} is not written as expected`;
  return null;
}

function objectProblem(value, schema, root, path, at) {
  const names = Object.keys(value);
  if (schema.maxProperties !== undefined && names.length > schema.maxProperties) {
    return `${at} has more than ${schema.maxProperties} entries`;
  }
  for (const name of schema.required ?? []) {
    if (!Object.hasOwn(value, name)) return `${at} has no "${name}"`;
  }
  for (const name of names) {
    const inner = [...path, name];
    if (schema.propertyNames) {
      const problem = check(name, schema.propertyNames, root, inner);
      if (problem) return `${inner.join(".")} is not a name this file can hold`;
    }
    const known = schema.properties && Object.hasOwn(schema.properties, name);
    const rule = known ? schema.properties[name] : schema.additionalProperties;
    if (rule === false) return `${at} has "${name}", which a work file does not have`;
    if (rule && rule !== true) {
      const problem = check(value[name], rule, root, inner);
      if (problem) return problem;
    }
  }
  return null;
}

function resolve(reference, root) {
  const name = reference.startsWith("#/$defs/") ? reference.slice("#/$defs/".length) : null;
  if (!name || !root.$defs || !Object.hasOwn(root.$defs, name)) throw new Error(`schema-check.mjs cannot follow ${reference}`);
  return root.$defs[name];
}

function isType(value, type) {
  switch (type) {
    case "object": return value !== null && typeof value === "object" && !Array.isArray(value);
    case "array": return Array.isArray(value);
    case "integer": return Number.isInteger(value);
    case "number": return typeof value === "number" && Number.isFinite(value);
    case "null": return value === null;
    default: return typeof value === type; // string, boolean
  }
}

function sameJSON(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}
