/// The JSON Schema (draft 2020-12) of scenario files (`NAME.test.yaml`, docs/testing-machines.md)
/// that `smrun schema --scenarios` prints, for editors: every key with a description. It
/// checks keys and kinds of values; `smrun test` also checks names and types against the machine.
enum ScenarioFileSchema {
    static let text = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "Statecraft scenario file",
  "description": "Scenarios that `smrun test` runs against a machine: inputs to send and what must hold after each. This schema checks keys and kinds of values; `smrun test` also checks names and types against the machine.",
  "type": "object",
  "required": ["machine", "scenarios"],
  "additionalProperties": false,
  "properties": {
    "machine": {
      "description": "The machine file, relative to the scenario file's folder (or absolute).",
      "type": "string",
      "minLength": 1
    },
    "scenarios": {
      "description": "The scenarios, each run on a fresh machine.",
      "type": "array",
      "items": { "$ref": "#/$defs/scenario" }
    }
  },
  "$defs": {
    "name": { "type": ["string", "integer", "number", "boolean"] },
    "value": { "type": ["string", "integer", "number", "boolean", "null"] },
    "variables": {
      "type": ["object", "null"],
      "additionalProperties": { "$ref": "#/$defs/value" }
    },
    "duration": {
      "description": "A duration: a number (integer or decimal) and a unit, ms, s, m or h (250ms, 30s, 1.5s, 5m, 1h).",
      "type": "string",
      "pattern": "^[0-9]+(\\.[0-9]+)?(ms|s|m|h)$"
    },
    "errorKind": {
      "description": "A rejection kind (docs/semantics.md).",
      "type": "string"
    },
    "scenario": {
      "type": "object",
      "required": ["name", "steps"],
      "additionalProperties": false,
      "properties": {
        "name": { "description": "The scenario's name, for reports and --filter.", "type": ["string", "integer", "number", "boolean"] },
        "context": { "description": "Start values of the named variables; the others keep their initial values.", "$ref": "#/$defs/variables" },
        "state": { "description": "The state to start in, resumed without entry effects; without it the machine starts.", "$ref": "#/$defs/name" },
        "steps": { "description": "The steps, in order.", "type": "array", "items": { "$ref": "#/$defs/step" } }
      }
    },
    "step": {
      "description": "An input to send or a wait on the machine's virtual clock, what must hold after its run to completion, or both.",
      "type": "object",
      "minProperties": 1,
      "additionalProperties": false,
      "not": { "required": ["send", "wait"] },
      "properties": {
        "send": {
          "description": "The input: a name, or { input, arg }.",
          "oneOf": [
            { "$ref": "#/$defs/name" },
            {
              "type": "object",
              "required": ["input"],
              "additionalProperties": false,
              "properties": { "input": { "$ref": "#/$defs/name" }, "arg": { "$ref": "#/$defs/value" } }
            }
          ]
        },
        "wait": {
          "description": "Moves the machine's virtual clock forward this long, firing the timers that fall due, in time order (as @wait in a script).",
          "$ref": "#/$defs/duration"
        },
        "expect": { "$ref": "#/$defs/expect" }
      }
    },
    "expect": {
      "description": "What must hold after the step; only the keys written are checked.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "ok": { "description": "Whether the input was accepted or ignored (true) or rejected (false); for a wait, whether no fired timer's result was rejected.", "type": "boolean" },
        "error": { "description": "The input's rejection kind; for a wait, the first rejected result's.", "$ref": "#/$defs/errorKind" },
        "state": { "description": "The state the machine rests in after the step.", "$ref": "#/$defs/name" },
        "states": {
          "description": "Exactly the active atomic states after the step (a statechart's configuration), in any order.",
          "oneOf": [{ "$ref": "#/$defs/name" }, { "type": ["array", "null"], "items": { "$ref": "#/$defs/name" } }]
        },
        "in": {
          "description": "States that are active after the step, compound and parallel ones included; others may be too.",
          "oneOf": [{ "$ref": "#/$defs/name" }, { "type": ["array", "null"], "items": { "$ref": "#/$defs/name" } }]
        },
        "effects": {
          "description": "Exactly the effects that ran, in order.",
          "oneOf": [{ "$ref": "#/$defs/name" }, { "type": ["array", "null"], "items": { "$ref": "#/$defs/name" } }]
        },
        "context": { "description": "The values of the named variables.", "$ref": "#/$defs/variables" },
        "sent": {
          "description": "Exactly the results the step's effects queued and its timers produced (a wait's: every fired timer's), in order, each matched on the fields it names.",
          "type": "array",
          "items": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "input": { "$ref": "#/$defs/name" },
              "after": { "description": "The delay of the after transition whose timer produced the result.", "$ref": "#/$defs/duration" },
              "timer": { "description": "The id of the delayed send whose timer produced the result.", "$ref": "#/$defs/name" },
              "state": { "description": "The state after the result.", "$ref": "#/$defs/name" },
              "error": { "$ref": "#/$defs/errorKind" }
            }
          }
        },
        "finished": { "description": "Whether the state after the step is final.", "type": "boolean" }
      }
    }
  }
}
"""#
}
