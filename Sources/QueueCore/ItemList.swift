/// An ordered list of uniquely identified elements in which inserting, removing and moving an
/// element, finding an element's position and finding the element at a position all cost
/// O(log n). The queue player keeps its entries in one.
///
/// ## Structure
/// An implicit treap: a binary tree whose in-order traversal is the list order, heap-ordered by
/// random priorities so that its expected depth is O(log n) whatever the sequence of edits.
/// Each node records the size of its subtree (for positions) and its parent (so that the
/// position of a known node is found by walking up, without a search). A dictionary maps each
/// id to its node. Nodes live in arrays and are addressed by ``Slot``; a node keeps its slot
/// while it moves, so a slot is a cheap handle on an element for as long as it stays in the
/// list.
///
/// | operation | cost |
/// |---|---|
/// | `slot(of:)` | O(1) expected (hash lookup) |
/// | `position(of:)`, `slot(at:)` | O(log n) |
/// | `successor(of:)`, `predecessor(of:)` | O(log n), O(1) amortized over a walk |
/// | `insert(_:at:)`, `remove(_:)`, `move(_:to:)` | O(log n) |
/// | `insert(_:after:)`, `move(_:after:)` | O(log n): a leaf insertion, expected O(1) rotations |
/// | `init(_:)` | O(n) |
/// | `reorderSuffix(from:as:)` | O(k + log n) for a suffix of k elements |
///
/// Priorities come from a fixed-seed generator, so the tree's shape, like everything in the
/// core, is reproducible.
///
/// ## Invariants (``checkInvariants()``)
/// - in-order traversal visits every stored element exactly once, and `count` of them;
/// - every node's `size` is 1 plus its children's sizes, and its children's `parent` is it;
/// - a node's priority is at least its children's;
/// - the id index maps exactly the stored elements' ids to their slots: no id appears twice.
struct ItemList<Element: Identifiable & VacantRepresentable> where Element.ID: Hashable {
    /// A handle on a stored element, valid until the element is removed.
    struct Slot: Hashable {
        fileprivate let index: Int32
    }

    private struct Node {
        var left: Int32 = none
        var right: Int32 = none
        var parent: Int32 = none
        var size: Int32 = 1
        var priority: UInt32
    }

    private static var none: Int32 { -1 }

    private var nodes: [Node] = []
    /// Free slots hold `Element.vacant`, so that elements are stored unwrapped and read in
    /// place; an optional wrapper would copy the element on every read.
    private var elements: [Element] = []
    private var freeSlots: [Int32] = []
    private var root: Int32 = none
    private var slotsByID: [Element.ID: Int32] = [:]
    private var priorities = SplitMix64(seed: 0x5EED_0F_0DE5)

    init() {}

    /// The list of `elements` in order, built in O(n). Returns nil when two share an id.
    ///
    /// Slot `i` holds `elements[i]`: the array becomes the element storage as it is, so that
    /// restoring a long queue copies no element.
    init?(_ elements: [Element]) {
        nodes.reserveCapacity(elements.count)
        slotsByID.reserveCapacity(elements.count)
        var stack: [Int32] = []
        for index in elements.indices {
            let node = Int32(index)
            guard slotsByID.updateValue(node, forKey: elements[index].id) == nil else { return nil }
            nodes.append(Node(priority: nextPriority()))
            // The Cartesian-tree construction: the new node, last in order, takes as its left
            // subtree every node on the right spine whose priority is lower than its own.
            var lastPopped = Self.none
            while let top = stack.last, nodes[Int(top)].priority < nodes[Int(node)].priority {
                lastPopped = stack.removeLast()
            }
            setLeft(node, lastPopped)
            if let top = stack.last { setRight(top, node) }
            stack.append(node)
        }
        self.elements = elements
        root = stack.first ?? Self.none
        if root != Self.none { recomputeSizes(root) }
        assert(checkInvariants())
    }

    var count: Int { slotsByID.count }
    var isEmpty: Bool { slotsByID.isEmpty }

    // MARK: Lookup

    func slot(of id: Element.ID) -> Slot? {
        guard let index = slotsByID[id] else { return nil }
        return Slot(index: index)
    }

    func contains(_ id: Element.ID) -> Bool {
        slotsByID[id] != nil
    }

    subscript(slot: Slot) -> Element {
        // `_read` and `_modify` lend the element in place: reading or writing one field does
        // not copy the whole element.
        _read {
            yield elements[Int(slot.index)]
        }
        _modify {
            yield &elements[Int(slot.index)]
        }
    }

    /// The zero-based position of the element in slot `slot`.
    func position(of slot: Slot) -> Int {
        var node = slot.index
        var position = Int(size(nodes[Int(node)].left))
        while case let parent = nodes[Int(node)].parent, parent != Self.none {
            if nodes[Int(parent)].right == node {
                position += Int(size(nodes[Int(parent)].left)) + 1
            }
            node = parent
        }
        return position
    }

    /// The slot of the element at `position`, which must be in `0..<count`.
    func slot(at position: Int) -> Slot {
        precondition(position >= 0 && position < count, "position out of range")
        var node = root
        var remaining = Int32(position)
        while true {
            let leftSize = size(nodes[Int(node)].left)
            if remaining < leftSize {
                node = nodes[Int(node)].left
            } else if remaining == leftSize {
                return Slot(index: node)
            } else {
                remaining -= leftSize + 1
                node = nodes[Int(node)].right
            }
        }
    }

    var first: Slot? {
        root == Self.none ? nil : Slot(index: leftmost(root))
    }

    var last: Slot? {
        root == Self.none ? nil : Slot(index: rightmost(root))
    }

    func successor(of slot: Slot) -> Slot? {
        var node = slot.index
        if nodes[Int(node)].right != Self.none { return Slot(index: leftmost(nodes[Int(node)].right)) }
        while case let parent = nodes[Int(node)].parent, parent != Self.none {
            if nodes[Int(parent)].left == node { return Slot(index: parent) }
            node = parent
        }
        return nil
    }

    func predecessor(of slot: Slot) -> Slot? {
        var node = slot.index
        if nodes[Int(node)].left != Self.none { return Slot(index: rightmost(nodes[Int(node)].left)) }
        while case let parent = nodes[Int(node)].parent, parent != Self.none {
            if nodes[Int(parent)].right == node { return Slot(index: parent) }
            node = parent
        }
        return nil
    }

    /// The slots in order, starting at `slot` (all of them when nil). Walking the whole list
    /// this way costs O(n).
    func slots(from slot: Slot? = nil) -> SlotSequence {
        SlotSequence(list: self, upcoming: slot ?? first)
    }

    /// The elements in order, starting at `slot` (all of them when nil).
    func elements(from slot: Slot? = nil) -> LazyMapSequence<SlotSequence, Element> {
        slots(from: slot).lazy.map { self[$0] }
    }

    struct SlotSequence: Sequence, IteratorProtocol {
        fileprivate let list: ItemList
        fileprivate var upcoming: Slot?

        mutating func next() -> Slot? {
            guard let slot = upcoming else { return nil }
            upcoming = list.successor(of: slot)
            return slot
        }
    }

    // MARK: Editing

    /// Inserts `element`, whose id must not be in the list, so that it ends at `position`
    /// (in `0...count`).
    @discardableResult
    mutating func insert(_ element: Element, at position: Int) -> Slot {
        precondition(slotsByID[element.id] == nil, "duplicate id")
        precondition(position >= 0 && position <= count, "position out of range")
        let node = allocate(element)
        link(node, at: position)
        assert(checkInvariants())
        return Slot(index: node)
    }

    /// Inserts `element`, whose id must not be in the list, right after `anchor`, or at the
    /// end when `anchor` is nil. Cheaper than a positional insert: the node goes in as a leaf
    /// next to its neighbour and rotates up, so no position is computed.
    @discardableResult
    mutating func insert(_ element: Element, after anchor: Slot?) -> Slot {
        precondition(slotsByID[element.id] == nil, "duplicate id")
        let node = allocate(element)
        link(node, after: anchor?.index ?? lastNode)
        assert(checkInvariants())
        return Slot(index: node)
    }

    /// Moves the element in `slot` right after `anchor` (another element), or to the end
    /// when `anchor` is nil. The slot stays valid.
    mutating func move(_ slot: Slot, after anchor: Slot?) {
        precondition(anchor != slot, "an element cannot follow itself")
        unlink(slot.index)
        link(slot.index, after: anchor?.index ?? lastNode)
        assert(checkInvariants())
    }

    private var lastNode: Int32 {
        root == Self.none ? Self.none : rightmost(root)
    }

    /// Removes and returns the element in `slot`; the slot becomes invalid.
    @discardableResult
    mutating func remove(_ slot: Slot) -> Element {
        let node = slot.index
        unlink(node)
        var element = Element.vacant
        swap(&element, &elements[Int(node)])
        slotsByID[element.id] = nil
        freeSlots.append(node)
        assert(checkInvariants())
        return element
    }

    /// Moves the element in `slot` so that it ends at `position` (in `0..<count`). The slot
    /// stays valid.
    mutating func move(_ slot: Slot, to position: Int) {
        precondition(position >= 0 && position < count, "position out of range")
        unlink(slot.index)
        link(slot.index, at: position)
        assert(checkInvariants())
    }

    mutating func removeAll() {
        nodes.removeAll(keepingCapacity: true)
        elements.removeAll(keepingCapacity: true)
        freeSlots.removeAll(keepingCapacity: true)
        slotsByID.removeAll(keepingCapacity: true)
        root = Self.none
    }

    /// Puts the elements from `position` to the end in the order of `order`, which must list
    /// exactly their slots.
    mutating func reorderSuffix(from position: Int, as order: [Slot]) {
        precondition(position >= 0 && position + order.count == count, "not the suffix")
        let (prefix, _) = split(root, at: Int32(position))
        var stack: [Int32] = []
        for slot in order {
            let node = slot.index
            nodes[Int(node)] = Node(priority: nextPriority())
            var lastPopped = Self.none
            while let top = stack.last, nodes[Int(top)].priority < nodes[Int(node)].priority {
                lastPopped = stack.removeLast()
            }
            setLeft(node, lastPopped)
            if let top = stack.last { setRight(top, node) }
            stack.append(node)
        }
        let suffix = stack.first ?? Self.none
        if suffix != Self.none { recomputeSizes(suffix) }
        root = merge(prefix, suffix)
        if root != Self.none { nodes[Int(root)].parent = Self.none }
        assert(checkInvariants())
    }

    // MARK: Tree internals

    private mutating func nextPriority() -> UInt32 {
        UInt32(truncatingIfNeeded: priorities.next() >> 32)
    }

    private mutating func allocate(_ element: Element) -> Int32 {
        let node: Int32
        if let reused = freeSlots.popLast() {
            node = reused
            nodes[Int(node)] = Node(priority: nextPriority())
            elements[Int(node)] = element
        } else {
            node = Int32(nodes.count)
            nodes.append(Node(priority: nextPriority()))
            elements.append(element)
        }
        slotsByID[element.id] = node
        return node
    }

    private func size(_ node: Int32) -> Int32 {
        node == Self.none ? 0 : nodes[Int(node)].size
    }

    private func leftmost(_ start: Int32) -> Int32 {
        var node = start
        while case let left = nodes[Int(node)].left, left != Self.none { node = left }
        return node
    }

    private func rightmost(_ start: Int32) -> Int32 {
        var node = start
        while case let right = nodes[Int(node)].right, right != Self.none { node = right }
        return node
    }

    private mutating func setLeft(_ node: Int32, _ child: Int32) {
        nodes[Int(node)].left = child
        if child != Self.none { nodes[Int(child)].parent = node }
    }

    private mutating func setRight(_ node: Int32, _ child: Int32) {
        nodes[Int(node)].right = child
        if child != Self.none { nodes[Int(child)].parent = node }
    }

    private mutating func update(_ node: Int32) {
        nodes[Int(node)].size = 1 + size(nodes[Int(node)].left) + size(nodes[Int(node)].right)
    }

    @discardableResult
    private mutating func recomputeSizes(_ node: Int32) -> Int32 {
        let left = nodes[Int(node)].left
        let right = nodes[Int(node)].right
        let total = 1 + (left == Self.none ? 0 : recomputeSizes(left)) + (right == Self.none ? 0 : recomputeSizes(right))
        nodes[Int(node)].size = total
        return total
    }

    /// Joins two trees, every element of `left` before every element of `right`. The result's
    /// parent is left for the caller to set.
    private mutating func merge(_ left: Int32, _ right: Int32) -> Int32 {
        if left == Self.none { return right }
        if right == Self.none { return left }
        if nodes[Int(left)].priority >= nodes[Int(right)].priority {
            setRight(left, merge(nodes[Int(left)].right, right))
            update(left)
            return left
        } else {
            setLeft(right, merge(left, nodes[Int(right)].left))
            update(right)
            return right
        }
    }

    /// Splits `tree` into its first `count` elements and the rest. Both roots' parents are
    /// left for the caller to set.
    private mutating func split(_ tree: Int32, at count: Int32) -> (Int32, Int32) {
        if tree == Self.none { return (Self.none, Self.none) }
        let leftSize = size(nodes[Int(tree)].left)
        if count <= leftSize {
            let (first, rest) = split(nodes[Int(tree)].left, at: count)
            setLeft(tree, rest)
            update(tree)
            if first != Self.none { nodes[Int(first)].parent = Self.none }
            return (first, tree)
        } else {
            let (first, rest) = split(nodes[Int(tree)].right, at: count - leftSize - 1)
            setRight(tree, first)
            update(tree)
            if rest != Self.none { nodes[Int(rest)].parent = Self.none }
            return (tree, rest)
        }
    }

    /// Puts the detached node `node` at `position` of the tree.
    private mutating func link(_ node: Int32, at position: Int) {
        let (before, after) = split(root, at: Int32(position))
        nodes[Int(node)].left = Self.none
        nodes[Int(node)].right = Self.none
        nodes[Int(node)].size = 1
        root = merge(merge(before, node), after)
        nodes[Int(root)].parent = Self.none
    }

    /// Puts the detached node right after `anchor` (first when `anchor` is none): as a leaf
    /// beside it, then rotated up until the heap order holds. Expected O(1) rotations; the
    /// sizes of the O(log n) ancestors grow by one.
    private mutating func link(_ node: Int32, after anchor: Int32) {
        nodes[Int(node)].left = Self.none
        nodes[Int(node)].right = Self.none
        nodes[Int(node)].parent = Self.none
        nodes[Int(node)].size = 1
        guard root != Self.none else {
            root = node
            return
        }
        if anchor == Self.none {
            setLeft(leftmost(root), node)
        } else if nodes[Int(anchor)].right == Self.none {
            setRight(anchor, node)
        } else {
            setLeft(leftmost(nodes[Int(anchor)].right), node)
        }
        var ancestor = nodes[Int(node)].parent
        while ancestor != Self.none {
            nodes[Int(ancestor)].size += 1
            ancestor = nodes[Int(ancestor)].parent
        }
        while case let parent = nodes[Int(node)].parent, parent != Self.none,
              nodes[Int(parent)].priority < nodes[Int(node)].priority {
            rotateUp(node)
        }
    }

    /// Rotates `node` above its parent, keeping the order, parents and sizes.
    private mutating func rotateUp(_ node: Int32) {
        let parent = nodes[Int(node)].parent
        let grandparent = nodes[Int(parent)].parent
        if nodes[Int(parent)].left == node {
            setLeft(parent, nodes[Int(node)].right)
            setRight(node, parent)
        } else {
            setRight(parent, nodes[Int(node)].left)
            setLeft(node, parent)
        }
        nodes[Int(node)].parent = grandparent
        if grandparent == Self.none {
            root = node
        } else if nodes[Int(grandparent)].left == parent {
            nodes[Int(grandparent)].left = node
        } else {
            nodes[Int(grandparent)].right = node
        }
        update(parent)
        update(node)
    }

    /// Takes `node` out of the tree, keeping its slot, by putting the merge of its children in
    /// its place and shrinking its ancestors.
    private mutating func unlink(_ node: Int32) {
        let parent = nodes[Int(node)].parent
        let replacement = merge(nodes[Int(node)].left, nodes[Int(node)].right)
        if parent == Self.none {
            root = replacement
            if replacement != Self.none { nodes[Int(replacement)].parent = Self.none }
        } else if nodes[Int(parent)].left == node {
            setLeft(parent, replacement)
        } else {
            setRight(parent, replacement)
        }
        var ancestor = parent
        while ancestor != Self.none {
            nodes[Int(ancestor)].size -= 1
            ancestor = nodes[Int(ancestor)].parent
        }
        nodes[Int(node)].parent = Self.none
    }

    // MARK: Invariants

    /// Whether the invariants in the type's documentation hold. O(n).
    func checkInvariants() -> Bool {
        guard slotsByID.count + freeSlots.count == nodes.count, elements.count == nodes.count else { return false }
        if root == Self.none { return slotsByID.isEmpty }
        guard nodes[Int(root)].parent == Self.none else { return false }
        var visited = 0
        var stack: [Int32] = [root]
        while let node = stack.popLast() {
            visited += 1
            guard visited <= nodes.count, slotsByID[elements[Int(node)].id] == node else { return false }
            let current = nodes[Int(node)]
            guard current.size == 1 + size(current.left) + size(current.right) else { return false }
            for child in [current.left, current.right] where child != Self.none {
                guard nodes[Int(child)].parent == node,
                      nodes[Int(child)].priority <= current.priority else { return false }
                stack.append(child)
            }
        }
        return visited == slotsByID.count && Int(nodes[Int(root)].size) == visited
    }
}

/// An element type with a cheap placeholder value for free slots of an ``ItemList``.
protocol VacantRepresentable {
    static var vacant: Self { get }
}

extension ItemList: Sendable where Element: Sendable, Element.ID: Sendable {}
extension ItemList.Slot: Sendable {}
