/// The elements and attributes the SCXML reader knows: those it runs, those it refuses as
/// unsupported (never skipped), and Statecraft's own, in its namespace, for what a machine file
/// can say and SCXML cannot (typed inputs, named effects, refusals, descriptions).
enum SCXMLVocabulary {
    /// The namespace of Statecraft's additions to SCXML.
    static let statecraftNamespace = "https://statecraft.dev/scxml"
    /// The prefix the writer gives that namespace.
    static let statecraftPrefix = "sc"

    /// `datamodel` values: Statecraft's expression language (also the default) and SCXML's null one.
    static let ownDatamodel = "statecraft"
    static let nullDatamodel = "null"

    /// The event I/O processor `<send type>` may name: this machine's own queue.
    static let scxmlEventProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"
    /// `<send target>` for the internal queue.
    static let internalTarget = "#_internal"
    /// The event a failing step raises (``MachineDefinition/ErrorPolicy/raise``).
    static let errorExecutionEvent = "error.execution"

    /// SCXML elements Statecraft does not run, with why.
    static let unsupportedElements: [String: String] = [
        "invoke": "<invoke> (running another service) is not supported",
        "finalize": "<finalize> belongs to <invoke>, which is not supported",
        "script": "<script> is not supported: Statecraft runs no scripts",
        "donedata": "<donedata> is not supported: done events carry no data",
    ]

    /// Executable content: what may appear in `<onentry>`, `<onexit>`, `<transition>`.
    static let executableContent = [
        "raise", "send", "assign", "log", "if", "elseif", "else", "foreach", "cancel", "script",
    ]

    /// The attributes each SCXML element accepts (namespace-less attributes).
    static let attributes: [String: [String]] = [
        "scxml": ["initial", "name", "version", "datamodel", "binding"],
        "state": ["id", "initial"],
        "parallel": ["id"],
        "final": ["id"],
        "history": ["id", "type"],
        "initial": [],
        "transition": ["event", "cond", "target", "type"],
        "onentry": [],
        "onexit": [],
        "datamodel": [],
        "data": ["id", "src", "expr"],
        "assign": ["location", "expr"],
        "raise": ["event"],
        "send": ["event", "eventexpr", "target", "targetexpr", "type", "typeexpr", "id", "idlocation", "delay", "delayexpr", "namelist"],
        "content": ["expr"],
        "param": ["name", "expr", "location"],
        "log": ["label", "expr"],
        "if": ["cond"],
        "elseif": ["cond"],
        "else": [],
        "foreach": ["array", "item", "index"],
        "cancel": ["sendid", "sendidexpr"],
    ]

    /// Statecraft's attributes on SCXML elements.
    static let statecraftAttributes: [String: [String]] = [
        "scxml": ["on-unhandled", "on-error", "description"],
        "state": ["description"],
        "parallel": ["description"],
        "final": ["description"],
        "transition": ["description", "reject"],
    ]

    /// The attributes an element takes, found once per element name as a document is read (a
    /// class: one reference to copy per element).
    final class AttributeRules: Sendable {
        /// Those without a namespace.
        let allowed: [String]
        /// Statecraft's, in its namespace.
        let allowedStatecraft: [String]

        /// SCXML's element `name` (none for an element SCXML does not have).
        init(scxmlElement name: String) {
            allowed = SCXMLVocabulary.attributes[name] ?? []
            allowedStatecraft = SCXMLVocabulary.statecraftAttributes[name] ?? []
        }

        /// Statecraft's element `name`, whose attributes have no namespace.
        init(statecraftElement name: String) {
            allowed = SCXMLVocabulary.statecraftElementAttributes[name] ?? []
            allowedStatecraft = []
        }
    }

    /// Statecraft's elements: `<sc:input>` declares an input, `<sc:effect>` runs a named effect.
    static let statecraftElementAttributes: [String: [String]] = [
        "input": ["name", "arg", "internal", "description"],
        "effect": ["name"],
    ]
}
