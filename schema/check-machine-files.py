#!/usr/bin/env python3
"""Checks machine files against schema/machine.schema.json with the `jsonschema` package.

Usage: check-machine-files.py SCHEMA FILE...
Prints one line per file, `valid FILE` or `invalid FILE: PATH: MESSAGE` (or `unreadable FILE:
...` for YAML that does not parse), and exits 0; the tests read the lines.

YAML is read as YAML 1.2's core schema, as smrun and yaml-language-server read it: `on`, `no`
and `yes` are strings; mapping keys are kept as written.
"""
import json
import re
import sys

import jsonschema
import yaml


class CoreSchemaLoader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2 core-schema scalars instead of YAML 1.1's."""


CoreSchemaLoader.yaml_implicit_resolvers = {}
for tag, pattern, first in [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+.0123456789"),
    ),
]:
    CoreSchemaLoader.add_implicit_resolver(tag, re.compile(pattern), first)


def construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    return int(text, 0) if text.startswith("0x") else int(text, 10)


def construct_mapping(loader, node):
    # Keys as written: a state named `1` or `on` is the key "1" or "on".
    return {
        (key.value if isinstance(key, yaml.ScalarNode) else loader.construct_object(key)): loader.construct_object(value, deep=True)
        for key, value in node.value
    }


CoreSchemaLoader.add_constructor("tag:yaml.org,2002:int", construct_int)
CoreSchemaLoader.add_constructor("tag:yaml.org,2002:map", construct_mapping)


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        schema = json.load(file)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sys.argv[2:]:
        try:
            with open(path, encoding="utf-8") as file:
                document = yaml.load(file, Loader=CoreSchemaLoader)
        except (yaml.YAMLError, UnicodeDecodeError) as error:
            print(f"unreadable {path}: {str(error).splitlines()[0]}")
            continue
        error = jsonschema.exceptions.best_match(validator.iter_errors(document))
        if error is None:
            print(f"valid {path}")
        else:
            print(f"invalid {path}: {error.json_path}: {error.message}")


main()
