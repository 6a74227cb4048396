/// A width and a height.
public struct Size: Sendable, Hashable {
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle with its origin at the top-left corner (y grows downwards).
public struct Rect: Sendable, Hashable {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The left edge.
    public var minX: Double { x }
    /// The top edge.
    public var minY: Double { y }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }

    /// Whether the two rectangles strictly overlap: each starts before the other ends, on both
    /// axes. Rectangles that only touch along an edge or at a corner do not intersect; a
    /// rectangle of zero width or height (a line) intersects a rectangle whose interior it
    /// crosses. Comparisons with NaN are false, so a rectangle with a NaN edge intersects
    /// nothing.
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
}

/// Space kept free around the content.
public struct Insets: Sendable, Hashable {
    /// Space above the content.
    public var top: Double
    /// Space left of the content.
    public var left: Double
    /// Space below the content.
    public var bottom: Double
    /// Space right of the content.
    public var right: Double

    /// Creates insets.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on all four sides.
    public init(all value: Double) {
        self.init(top: value, left: value, bottom: value, right: value)
    }

    /// No insets.
    public static let zero = Insets(all: 0)
}
