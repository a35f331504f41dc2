/// The JSON Schema (draft 2020-12) of machine files that `smrun schema` prints, for editors:
/// every key with a description (hover text), enums and name patterns. `schema/machine.schema.json`
/// is this text, committed so that editors can point at it (`make schema` rewrites it); the
/// tests check that the two are the same, that the schema names exactly the keys the decoder
/// knows (``MachineFileKeys``), and that a real validator accepts every example machine.
enum MachineFileSchema {
    static let text = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "Statecraft machine file",
  "description": "A state machine for smrun and StatecraftYAML (format version 1): its states, inputs, context, effects and transitions. This schema checks keys, kinds of values, enums and name patterns; `smrun validate` also checks references, types and expressions.",
  "type": "object",
  "required": ["initial", "states", "transitions"],
  "additionalProperties": false,
  "properties": {
    "machine": {
      "description": "The machine's name, shown in messages and saved in state files. Defaults to the file's base name.",
      "$ref": "#/$defs/text"
    },
    "description": {
      "description": "What the machine is for, for people; it does not change behaviour.",
      "$ref": "#/$defs/text"
    },
    "initial": {
      "description": "The state the machine starts in; its entry effects run at start. It cannot be a final state. A list names states in different regions of a parallel state.",
      "$ref": "#/$defs/names"
    },
    "on_unhandled": {
      "description": "What an input with no transition from the current state does: `reject` (the default) reports a `no-transition` rejection; `ignore` leaves the machine as it is and reports the input as ignored.",
      "enum": ["reject", "ignore"]
    },
    "on_error": {
      "description": "What a step that fails when it runs does: `reject` (the default) rejects the input with `expression-error`, changing nothing; `raise` follows SCXML: a failing guard is false, a failing step ends its effect, and either raises the internal input `error.execution`.",
      "enum": ["reject", "raise"]
    },
    "context": {
      "description": "Extended state: variable name -> initial value. A variable's type is its initial value's (int, double, bool, string, a list of one of them); a variable starting as null takes the type of what is assigned to it, one starting as [] the list type assigned to it.",
      "type": ["object", "null"],
      "propertyNames": { "$ref": "#/$defs/variableName" },
      "additionalProperties": {
        "description": "The variable's initial value: an int, a finite double, a bool, a string, null, or a list of ints, doubles, bools or strings of one type.",
        "oneOf": [
          { "type": ["string", "integer", "number", "boolean", "null"] },
          { "type": "array", "items": { "type": ["string", "integer", "number", "boolean"] } }
        ]
      }
    },
    "inputs": {
      "description": "The inputs the machine accepts: a list of names, or name -> argument type (or { arg, description }). Optional: without it, the inputs are those the transitions and sends use, none taking an argument.",
      "oneOf": [
        { "type": "array", "items": { "$ref": "#/$defs/name" } },
        {
          "type": ["object", "null"],
          "propertyNames": { "$ref": "#/$defs/name" },
          "additionalProperties": {
            "description": "The input's argument type (int, double, bool or string), { arg: TYPE, description: TEXT }, or nothing for an input without argument.",
            "oneOf": [
              { "$ref": "#/$defs/argumentType" },
              { "type": "null" },
              { "$ref": "#/$defs/inputOptions" }
            ]
          }
        }
      ]
    },
    "states": {
      "description": "The machine's states: a list of names, or name -> { entry, exit, final } (or nothing).",
      "oneOf": [
        { "type": "array", "items": { "$ref": "#/$defs/name" } },
        {
          "type": "object",
          "propertyNames": { "$ref": "#/$defs/name" },
          "additionalProperties": {
            "description": "The state's options, or nothing.",
            "oneOf": [{ "type": "null" }, { "$ref": "#/$defs/stateOptions" }]
          }
        }
      ]
    },
    "effects": {
      "description": "Effect bodies: effect name -> steps. An effect named by a state or transition and not defined here is a named hook without body (bound from Swift).",
      "type": ["object", "null"],
      "propertyNames": { "$ref": "#/$defs/name" },
      "additionalProperties": {
        "description": "What the effect does: a list of steps, one step ({ set: {...}, send: [...] }), or nothing for a named hook.",
        "$ref": "#/$defs/steps"
      }
    },
    "transitions": {
      "description": "The transitions, in the order they are tried: rows `INPUT | FROM => TO (internal) [GUARD] | EFFECTS` or mappings { input, from, to, when, effects }. For an input, the first transition whose `from` matches and whose guard holds is taken.",
      "type": ["array", "null"],
      "items": {
        "oneOf": [{ "$ref": "#/$defs/row" }, { "$ref": "#/$defs/transition" }]
      }
    }
  },
  "$defs": {
    "text": {
      "description": "Free text (any scalar).",
      "type": ["string", "integer", "number", "boolean"]
    },
    "name": {
      "description": "A state, input or effect name: any scalar (`on`, `1` and `no` are names), without spaces, control characters or | , = * # \" [ ] { }, which separate names in rows and scripts.",
      "type": ["string", "integer", "number", "boolean"],
      "pattern": "^[^\\s|,=*#\"\\[\\]{}\\x00-\\x1F\\x7F]+$"
    },
    "names": {
      "description": "One name, a list of names, or nothing.",
      "oneOf": [
        { "$ref": "#/$defs/name" },
        { "type": "array", "items": { "$ref": "#/$defs/name" } },
        { "type": "null" }
      ]
    },
    "variableName": {
      "description": "A context variable name: letters, digits and '_', not starting with a digit, and not a word of the expression language (true, false, null, arg).",
      "type": "string",
      "pattern": "^(?!(?:true|false|null|arg)$)[^\\x00-\\x40\\x5B-\\x5E\\x60\\x7B-\\x7F][^\\x00-\\x2F\\x3A-\\x40\\x5B-\\x5E\\x60\\x7B-\\x7F]*$"
    },
    "argumentType": {
      "description": "The type of an input's argument.",
      "enum": ["int", "double", "bool", "string"]
    },
    "expression": {
      "description": "An expression of the guard language: literals, context variables, `arg`, == != < <= > >=, && || !, + - * /, parentheses. Type-checked when the file loads. A string literal is quoted inside the expression: '\"fast\"'.",
      "type": ["string", "integer", "number", "boolean", "null"]
    },
    "inputOptions": {
      "description": "An input's argument type and description.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "arg": {
          "description": "The argument's type: int, double, bool or string; nothing for an input without argument.",
          "enum": ["int", "double", "bool", "string", null]
        },
        "description": {
          "description": "What the input means, for people.",
          "$ref": "#/$defs/text"
        },
        "internal": {
          "description": "Whether only the machine's own effects may send the input: sent from outside (a script, --send) it is rejected.",
          "type": "boolean"
        }
      }
    },
    "stateOptions": {
      "description": "A state's effects and whether it is final.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "entry": {
          "description": "Effects run, in order, when a transition enters the state (and at start, for the initial state).",
          "$ref": "#/$defs/names"
        },
        "exit": {
          "description": "Effects run, in order, when a transition leaves the state.",
          "$ref": "#/$defs/names"
        },
        "final": {
          "description": "A final state accepts no input: every input sent there is rejected as `finished`.",
          "type": "boolean"
        },
        "description": {
          "description": "What the state means, for people (shown by `smrun graph`).",
          "$ref": "#/$defs/text"
        },
        "states": {
          "description": "The state's children (a statechart): a list of names, or name -> options, as at the top level.",
          "oneOf": [
            { "type": "array", "items": { "$ref": "#/$defs/name" } },
            {
              "type": "object",
              "propertyNames": { "$ref": "#/$defs/name" },
              "additionalProperties": { "oneOf": [{ "type": "null" }, { "$ref": "#/$defs/stateOptions" }] }
            }
          ]
        },
        "initial": {
          "description": "The child entered by default (default: the first), or descendants one per region.",
          "$ref": "#/$defs/names"
        },
        "parallel": {
          "description": "The children are regions, all active together.",
          "type": "boolean"
        },
        "history": {
          "description": "Makes the state a history pseudo-state of its parent: it recalls the active child (shallow) or atomic states (deep).",
          "enum": ["shallow", "deep"]
        },
        "default": {
          "description": "For a history state: where it leads while its parent was never left.",
          "$ref": "#/$defs/names"
        },
        "default_effects": {
          "description": "Effects run after the entry effects when a compound state is entered through its initial, or when a history state leads to its default.",
          "$ref": "#/$defs/names"
        }
      }
    },
    "steps": {
      "description": "Steps run in order: a list of steps, one step, or nothing.",
      "oneOf": [
        { "type": "null" },
        { "$ref": "#/$defs/effectStep" },
        { "type": "array", "items": { "$ref": "#/$defs/effectStep" } }
      ]
    },
    "effectStep": {
      "description": "One step: set, cancel and send (assignments, cancels, then inputs to queue), log, if (or elif) with do and else, else, or foreach.",
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "set": {
          "description": "Context variable -> expression, assigned in the order written; `arg` is the triggering input's argument.",
          "type": "object",
          "propertyNames": { "$ref": "#/$defs/variableName" },
          "additionalProperties": { "$ref": "#/$defs/expression" }
        },
        "send": {
          "description": "Inputs to queue, run after the current transition, first in first out (run to completion), or with a delay to schedule: a name, { input, arg, queue, delay, id }, or a list of them.",
          "oneOf": [
            { "$ref": "#/$defs/sentInput" },
            { "type": "array", "items": { "$ref": "#/$defs/sentInput" } }
          ]
        },
        "cancel": {
          "description": "The ids of delayed sends to cancel while they are pending (after the step's set, before its send): a name or a list of names.",
          "$ref": "#/$defs/names"
        },
        "cancel_expr": {
          "description": "Cancels the pending delayed sends whose id is this expression's value, a string.",
          "$ref": "#/$defs/expression"
        },
        "log": {
          "description": "A line for the log (smrun: standard error): a label, or { label, expr }.",
          "oneOf": [
            { "$ref": "#/$defs/text" },
            {
              "type": "object",
              "additionalProperties": false,
              "minProperties": 1,
              "properties": {
                "label": { "description": "Written before the value.", "$ref": "#/$defs/text" },
                "expr": { "description": "The expression whose value is written.", "$ref": "#/$defs/expression" }
              }
            }
          ]
        },
        "if": { "description": "A bool expression: the steps of `do` run when it holds.", "$ref": "#/$defs/expression" },
        "elif": {
          "description": "After an if or elif step: a bool expression tested when no condition before it held.",
          "$ref": "#/$defs/expression"
        },
        "do": { "description": "The steps an if or elif runs when its condition holds.", "$ref": "#/$defs/steps" },
        "else": {
          "description": "The steps run when no condition of the if and elif before it held (in their mapping, or a step of its own after them).",
          "$ref": "#/$defs/steps"
        },
        "foreach": {
          "description": "Runs `do` once per item of an int n (0 to n - 1) or a string (its characters), the item and its index assigned to context variables.",
          "type": "object",
          "additionalProperties": false,
          "required": ["array", "item"],
          "properties": {
            "array": { "description": "The items: an int or string expression.", "$ref": "#/$defs/expression" },
            "item": { "description": "The context variable assigned each item.", "$ref": "#/$defs/variableName" },
            "index": { "description": "The context variable assigned each item's index, from 0.", "$ref": "#/$defs/variableName" },
            "do": { "description": "The steps run per item.", "$ref": "#/$defs/steps" }
          }
        }
      }
    },
    "duration": {
      "description": "A duration: a number (integer or decimal) and a unit, ms, s, m or h (250ms, 30s, 1.5s, 5m, 1h); from 0 to 100 years, to the millisecond.",
      "type": "string",
      "pattern": "^[0-9]+(\\.[0-9]+)?(ms|s|m|h)$"
    },
    "sentInput": {
      "description": "An input an effect queues: its name, or { input, arg, data, queue, delay, id }.",
      "oneOf": [
        { "$ref": "#/$defs/name" },
        {
          "type": "object",
          "additionalProperties": false,
          "required": ["input"],
          "properties": {
            "input": { "description": "The input to queue.", "$ref": "#/$defs/name" },
            "arg": { "description": "The queued input's argument, an expression.", "$ref": "#/$defs/expression" },
            "data": {
              "description": "The queued input's data with named fields (for an input without an argument type), read as arg.NAME: field name -> expression.",
              "type": "object",
              "propertyNames": { "pattern": "^[^\\x00-\\x40\\x5B-\\x5E\\x60\\x7B-\\x7F][^\\x00-\\x2F\\x3A-\\x40\\x5B-\\x5E\\x60\\x7B-\\x7F]*$" },
              "additionalProperties": { "$ref": "#/$defs/expression" }
            },
            "queue": {
              "description": "internal (the default): run after the current transition; external: run once the internal queue is empty, before the next input from outside.",
              "enum": ["internal", "external"]
            },
            "delay": { "description": "Schedules the input this long after the effect runs instead of queueing it.", "$ref": "#/$defs/duration" },
            "delay_expr": { "description": "Like delay, computed when the effect runs: an expression whose value is an int of milliseconds or a duration string.", "$ref": "#/$defs/expression" },
            "id": { "description": "A name for a delayed input, which `cancel` uses to cancel it before it is due.", "$ref": "#/$defs/name" },
            "target": { "description": "Where the input goes when not to this machine; a machine sends only to itself, so under `on_error: raise` the send raises `error.execution`, and otherwise it is an error.", "type": "string" }
          }
        }
      ]
    },
    "row": {
      "description": "A transition as a row: `INPUT | FROM => TO (internal) [GUARD] | EFFECTS`. FROM is names separated by commas, or * (every non-final state); `=> TO` (leave it out to stay, without exit or entry effects), `(internal)` (`type: internal`: a transition from a compound state to its own descendant does not leave it), `[GUARD]` and `| EFFECTS` are optional.",
      "type": "string",
      "pattern": "^\\s*[^\\s|]+\\s*\\|"
    },
    "transition": {
      "description": "A transition as a mapping, which can have a guard; taken on an `input`, or `after` a delay, or, without either, eventless.",
      "type": "object",
      "additionalProperties": false,
      "required": ["from"],
      "not": { "required": ["input", "after"] },
      "properties": {
        "input": {
          "description": "The input that triggers the transition, or a pattern: `NAME.*` matches NAME and every NAME.something, `*` every input. Leave it out for an eventless transition.",
          "oneOf": [{ "$ref": "#/$defs/name" }, { "type": "string", "pattern": "^([^\\s|,=*#\"\\[\\]{}\\x00-\\x1F\\x7F]+\\.)?\\*$" }]
        },
        "after": {
          "description": "Taken when its source state has been active this long (the timer starts when the state is entered and stops when it is left), instead of on an input.",
          "$ref": "#/$defs/duration"
        },
        "from": {
          "description": "The states it leaves from: a name, a list of names, \"*\" for every non-final state, or { not: STATES } for every non-final state but those.",
          "oneOf": [
            { "const": "*" },
            { "$ref": "#/$defs/name" },
            { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/name" } },
            { "$ref": "#/$defs/excludedSources" }
          ]
        },
        "to": {
          "description": "The state it enters. Leave it out (or null) to stay, without exit or entry effects; name the source itself for an external self-transition.",
          "oneOf": [
            { "$ref": "#/$defs/name" },
            { "type": "null" },
            { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/name" } }
          ]
        },
        "type": {
          "description": "internal: a transition from a compound state to its descendants does not leave it; external (default) does.",
          "enum": ["internal", "external"]
        },
        "when": {
          "description": "A guard: a bool expression over the context and `arg`. The transition is taken only when it holds.",
          "$ref": "#/$defs/expression"
        },
        "effects": {
          "description": "Effects run, in order, between the source's exit effects and the target's entry effects.",
          "$ref": "#/$defs/names"
        },
        "reject": {
          "description": "Rejects the input with this message (one line) instead of taking a transition: nothing changes. Cannot go with `to` or `effects`.",
          "$ref": "#/$defs/text"
        },
        "description": {
          "description": "What the transition means, for people (shown by `smrun graph`).",
          "$ref": "#/$defs/text"
        }
      }
    },
    "excludedSources": {
      "description": "Every non-final state except those listed.",
      "type": "object",
      "additionalProperties": false,
      "required": ["not"],
      "properties": {
        "not": {
          "description": "The states to leave out of \"*\": a name or a list of names.",
          "oneOf": [
            { "$ref": "#/$defs/name" },
            { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/name" } }
          ]
        }
      }
    }
  }
}
"""#
}
