#!/usr/bin/env python3
"""schema_check.py: validates JSON documents against a JSON Schema.
    schema_check.py [--mini] SCHEMA FILE...
Uses the jsonschema module (Debian: python3-jsonschema) when it can be
imported, else, or with --mini, a small validator of the keywords
contrib/patchreview.schema.json uses. Prints one line per problem and exits
1 when there is one, 2 when the schema uses a keyword the small one lacks."""
import json
import re
import sys

KNOWN = {"$schema", "$id", "title", "description", "type", "required", "properties",
         "definitions", "items", "anyOf", "enum", "const", "pattern", "minimum",
         "minLength", "$ref", "not"}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def type_ok(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[name])


def mini(schema, root, value, path, out):
    unknown = set(schema) - KNOWN
    if unknown:
        print("schema_check: keywords the small validator lacks: %s" % sorted(unknown))
        sys.exit(2)
    if "$ref" in schema:
        node = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        return mini(node, root, value, path, out)
    if "type" in schema and not type_ok(value, schema["type"]):
        out.append("%s: not of type %s" % (path, schema["type"]))
        return
    if "const" in schema and value != schema["const"]:
        out.append("%s: is not %r" % (path, schema["const"]))
    if "enum" in schema and value not in schema["enum"]:
        out.append("%s: %r is not one of %r" % (path, value, schema["enum"]))
    if "not" in schema and not mini_list(schema["not"], root, value, path):
        out.append("%s: matches what it must not" % path)
    if "anyOf" in schema:
        if not any(not mini_list(s, root, value, path) for s in schema["anyOf"]):
            out.append("%s: matches none of anyOf" % path)
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            out.append("%s: %r does not match %s" % (path, value[:60], schema["pattern"]))
        if len(value) < schema.get("minLength", 0):
            out.append("%s: too short" % path)
    if type_ok(value, "number") and "minimum" in schema and value < schema["minimum"]:
        out.append("%s: below %s" % (path, schema["minimum"]))
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                out.append("%s: %r is missing" % (path, key))
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                mini(sub, root, value[key], "%s.%s" % (path, key), out)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            mini(schema["items"], root, item, "%s[%d]" % (path, i), out)


def mini_list(schema, root, value, path):
    out = []
    mini(schema, root, value, path, out)
    return out


def main():
    args = sys.argv[1:]
    use_mini = args[:1] == ["--mini"]
    if use_mini:
        args = args[1:]
    schema = json.load(open(args[0]))
    validator = None
    if not use_mini:
        try:
            import jsonschema
            validator = jsonschema.Draft7Validator(schema)
        except ImportError:
            pass
    bad = 0
    for name in args[1:]:
        doc = json.load(open(name))
        if validator:
            problems = ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message)
                        for e in validator.iter_errors(doc)]
        else:
            problems = mini_list(schema, schema, doc, "$")
        for p in problems:
            print("%s: %s" % (name, p))
        bad += bool(problems)
    sys.exit(1 if bad else 0)


main()
