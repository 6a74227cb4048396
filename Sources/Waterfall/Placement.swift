/// Where an item sits, in the terms a fluid (CSS) layout needs: its column, the sum of the
/// aspect ratios (height / width) of the items above it in that column, and how many items
/// are above it.
///
/// For any column width `w`, the item's top is
/// `columnsTop + aspectRatioSumAbove · w + itemsAbove · rowGap`, so a page can recompute the
/// frames at its actual width without redoing the layout.
public struct Placement: Sendable, Hashable {
    /// The item's column, 0 for the leftmost.
    public var column: Int
    /// The sum of the aspect ratios (height / width) of the items above it in its column.
    public var aspectRatioSumAbove: Double
    /// How many items are above it in its column.
    public var itemsAbove: Int

    /// Creates a placement.
    public init(column: Int, aspectRatioSumAbove: Double, itemsAbove: Int) {
        self.column = column
        self.aspectRatioSumAbove = aspectRatioSumAbove
        self.itemsAbove = itemsAbove
    }
}
