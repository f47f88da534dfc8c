// Composing a plain YAML document into Yams' nodes straight from libyaml's events. Yams' own
// composer (`Yams.compose`) is most of a small table's start: 2.3 million instructions for a
// 4-row table and its asset catalog, of which libyaml's parser is 0.46 million; the rest is Yams'
// check for duplicate keys (a dictionary of nodes per mapping, hashing every key) and the
// runtime's first lookups of the generic types Yams uses, which Yams, a dependency, is built
// without our metadata flag for (BENCHMARKS.md, "Measurements behind the code": YAMLComposer).
// libyaml is the copy Yams builds (its `CYaml` module, which SwiftPM shows to Yams' dependents);
// Yams' version is pinned exactly in Package.swift.
//
// Only what composes one way is composed here: one document of mappings, lists and scalars, with
// implicit tags, no anchors or aliases, and mapping keys that are scalars of different text. Any
// other document, and every error, is left to Yams, which composes it (or words its error) as
// before; `YAMLComposerTests` holds the two to the same nodes, marks and styles.

internal import CYaml
import Yams

/// Plain YAML documents composed from libyaml's events into the nodes `Yams.compose` makes.
enum YAMLComposer {
    /// The root node `Yams.compose(yaml: text, resolver, constructor, .utf8)` gives, or nil when
    /// the text is one to leave to Yams (see the file's comment).
    static func compose(_ text: String, resolver: Resolver, constructor: Constructor) -> Node? {
        guard Event.markIsTwoInts else { return nil }
        var text = text
        return text.withUTF8 { bytes -> Node? in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, base, bytes.count)
            return withUnsafeMutablePointer(to: &parser) { pointer in
                Events(parser: pointer, resolver: resolver, constructor: constructor).document()
            }
        }
    }

    /// libyaml's events, read one at a time, and the nodes made of them.
    private struct Events {
        let parser: UnsafeMutablePointer<yaml_parser_t>
        let resolver: Resolver, constructor: Constructor

        /// The next event's type and what the nodes need of it, the event itself freed; nil on an error.
        func next() -> Event? {
            var event = yaml_event_t()
            guard yaml_parser_parse(parser, &event) == 1 else { return nil }
            defer { yaml_event_delete(&event) }
            return Event(event)
        }

        /// Stream start, document start, the root, document end, stream end: the root, else nil.
        func document() -> Node? {
            guard next()?.type == YAML_STREAM_START_EVENT, next()?.type == YAML_DOCUMENT_START_EVENT,
                let first = next(), let root = node(first, depth: 0),
                next()?.type == YAML_DOCUMENT_END_EVENT, next()?.type == YAML_STREAM_END_EVENT
            else { return nil }
            return root
        }

        /// The node `first` starts, its events read to its end; nil for one left to Yams.
        func node(_ first: Event, depth: Int) -> Node? {
            guard !first.hasAnchor, let name = first.tag, depth <= DocumentLimits.depth else { return nil }
            let tag = Tag(name, resolver, constructor)
            switch first.type {
            case YAML_SCALAR_EVENT:
                return .scalar(.init(first.value, tag, Node.Scalar.Style(rawValue: first.style) ?? .any, first.mark))
            case YAML_SEQUENCE_START_EVENT: return sequence(first, tag, depth: depth)
            case YAML_MAPPING_START_EVENT: return mapping(first, tag, depth: depth)
            default: return nil  // an alias, or an event out of place
            }
        }

        /// The list `first` starts. Its style is read from its end event, as Yams reads it (that
        /// event's data is zeroed: `any`).
        func sequence(_ first: Event, _ tag: Tag, depth: Int) -> Node? {
            var nodes: [Node] = []
            while let event = next() {
                if event.type == YAML_SEQUENCE_END_EVENT {
                    return .sequence(.init(nodes, tag, Node.Sequence.Style(rawValue: event.style) ?? .any, first.mark))
                }
                guard let item = node(event, depth: depth + 1) else { return nil }
                nodes.append(item)
            }
            return nil
        }

        /// The mapping `first` starts, whose keys are scalars of texts no other key has (Yams then
        /// finds no duplicate). Its style is read from its end event, as for a list.
        func mapping(_ first: Event, _ tag: Tag, depth: Int) -> Node? {
            var pairs: [(Node, Node)] = []
            var keys = Set<String>()  // past a few keys: a linear look for a duplicate costs more
            while let event = next() {
                if event.type == YAML_MAPPING_END_EVENT {
                    return .mapping(.init(pairs, tag, Node.Mapping.Style(rawValue: event.style) ?? .any, first.mark))
                }
                guard event.type == YAML_SCALAR_EVENT, Self.isNew(event.value, among: pairs, &keys),
                    let key = node(event, depth: depth + 1), let valueEvent = next(),
                    let value = node(valueEvent, depth: depth + 1)
                else { return nil }
                // Yams hashes every key to look for duplicates, which resolves its tag in place
                // (`Tag.resolved(with:)` sets the name): the key's tag is read so here too.
                _ = key.tag
                pairs.append((key, value))
            }
            return nil
        }

        /// Whether no key of `pairs` has the text `key`; `keys` holds their texts past 16 of them.
        static func isNew(_ key: String, among pairs: [(Node, Node)], _ keys: inout Set<String>) -> Bool {
            guard pairs.count >= 16 else { return !pairs.contains { $0.0.scalar?.string == key } }
            if keys.isEmpty { keys = Set(pairs.compactMap { $0.0.scalar?.string }) }
            return keys.insert(key).inserted
        }
    }

    /// What a node needs of one event, copied out before libyaml frees it.
    private struct Event {
        let type: yaml_event_type_t
        /// The implicit tag the node gets, as Yams names it (`str` for a quoted scalar); nil for
        /// an explicit tag.
        let tag: Tag.Name?
        let hasAnchor: Bool
        let style: UInt32
        let value: String
        let mark: Mark

        /// A `Mark` at `line` and `column` (from 1). Yams keeps `Mark`'s initializer internal; a
        /// `Mark` is its two `Int`s, `line` then `column`, and `YAMLComposerTests` compares every
        /// mark made so with Yams' own.
        static func mark(line: Int, column: Int) -> Mark {
            unsafeBitCast((line, column), to: Mark.self)
        }

        /// Whether `Mark` is still two `Int`s, `line` then `column` (a Yams that changed it leaves
        /// every document to Yams, not to a bit cast of the wrong size or order).
        static let markIsTwoInts =
            MemoryLayout<Mark>.size == MemoryLayout<(Int, Int)>.size
            && mark(line: 3, column: 5).line == 3 && mark(line: 3, column: 5).column == 5

        init(_ event: yaml_event_t) {
            type = event.type
            mark = Self.mark(line: event.start_mark.line + 1, column: event.start_mark.column + 1)
            switch event.type {
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                tag = scalar.quoted_implicit == 1 ? .str : scalar.tag == nil ? .implicit : nil
                hasAnchor = scalar.anchor != nil
                style = scalar.style.rawValue
                value = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            case YAML_SEQUENCE_START_EVENT, YAML_SEQUENCE_END_EVENT:
                let sequence = event.data.sequence_start
                tag = sequence.implicit != 0 ? .implicit : nil
                hasAnchor = sequence.anchor != nil
                (style, value) = (sequence.style.rawValue, "")
            case YAML_MAPPING_START_EVENT, YAML_MAPPING_END_EVENT:
                let mapping = event.data.mapping_start
                tag = mapping.implicit != 0 ? .implicit : nil
                hasAnchor = mapping.anchor != nil
                (style, value) = (mapping.style.rawValue, "")
            default:
                (tag, hasAnchor, style, value) = (nil, false, 0, "")
            }
        }
    }
}
