"""Reads an album's frame data as the README documents it (frames.json version 3 and its
chunks) and expands it: every item's page, thumbnails and images, and every frame at each
breakpoint's reference width, computed with the documented formulas."""
import json
import pathlib


def fill(template, item_id, width=0):
    """A URL template filled in for an item: `{id}`, `{dir}` and `{name}` (the id up to and after
    its last `/`: a tag page's ids are paths such as `../../trip/img_1`) and `{width}`."""
    cut = item_id.rfind("/") + 1
    return (template.replace("{dir}", item_id[:cut]).replace("{name}", item_id[cut:])
            .replace("{id}", item_id).replace("{width}", str(width)))


def load(frames_json):
    """`frames_json`: the path of an album's frames.json. Returns a dict with gap, count,
    staticCount, items (page, alt, width, height, ratio, color, thumbnails, images, sources:
    per further format its type, thumbnails and images) and
    breakpoints (minWidth, columns, referenceWidth, columnWidth, contentHeight, frames, and
    boxes: per section of a grouped album its box [y, height], the header on top), sections
    ({start, label}; empty when the album is not grouped) and headerHeight."""
    path = pathlib.Path(frames_json)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == 3, f"{path}: version {data['version']}"
    count, gap, scale = data["count"], data["gap"], data["ratioScale"]
    assert len(data["ratios"]) == count and len(data["ids"]) == count, f"{path}: ratios/ids do not match count"
    colors = data["colors"]
    assert len(colors) == 6 * count, f"{path}: {len(colors)} colour digits for {count} photos"
    ratios = [r / scale for r in data["ratios"]]
    items = []
    for number, chunk in enumerate(data["chunks"]):
        part = json.loads((path.parent / chunk).read_text(encoding="utf-8"))
        assert part["start"] == number * data["chunkSize"], f"{chunk}: start {part['start']}"
        for detail in part["items"]:
            index = len(items)
            item_id = data["ids"][index]
            images = [{"width": w, "url": fill(data["imageURL"], item_id, w)}
                      for w in detail["widths"]]
            thumbnails = [i for i in images if i["width"] <= data["tileMaxWidth"]] or images[:1]
            # The same images in each further format offered through <picture>, best first.
            sources = []
            for source in data.get("sources", []):
                urls = [{"width": w, "url": fill(source["imageURL"], item_id, w)}
                        for w in detail["widths"]]
                tile_urls = [i for i in urls if i["width"] <= data["tileMaxWidth"]] or urls[:1]
                sources.append({"type": source["type"], "thumbnails": tile_urls, "images": urls})
            assert detail["color"] == "#" + colors[6 * index:6 * index + 6], f"{chunk}: item {index}'s colour differs from the index's"
            items.append(dict(detail, id=item_id, page=fill(data["pageURL"], item_id),
                              ratio=ratios[index], thumbnails=thumbnails, images=images, sources=sources))
    assert len(items) == count, f"{path}: {len(items)} items in the chunks, count {count}"
    sections = data["sections"]
    header = data["headerHeight"]
    breakpoints = []
    for bp in data["breakpoints"]:
        if data["layout"] == "rows":
            assert sum(bp["rows"]) == count, f"{path}: rows of {sum(bp['rows'])} items for {count}"
            frames = place_rows(bp["rows"], data["rowRatios"], scale, bp["rowHeight"], gap, bp["referenceWidth"])
            breakpoints.append(dict(bp, frames=frames, boxes=[]))
            continue
        assert len(bp["column"]) == count, f"{path}: column string of {len(bp['column'])} for {count} items"
        frames, boxes = place(bp["column"], ratios, bp["columns"], gap, bp["referenceWidth"], sections, header)
        breakpoints.append(dict(bp, frames=frames, boxes=boxes))
    return {"gap": gap, "count": count, "staticCount": data["staticCount"], "items": items, "layout": data["layout"],
            "breakpoints": breakpoints, "sections": sections, "headerHeight": header, "raw": data}


def place(column, ratios, n, gap, width, sections=(), header=0):
    """Every item's frame [x, y, width, height] and every section's box [y, height] at a wall
    `width`, by docs/layout.md's formulas: in a grouped album each section's columns start below
    its header and a gap, and end at its largest column ratio sum and count; the next section's
    header is a gap below."""
    colw = (width - (n - 1) * gap) / n
    starts = {s["start"] for s in sections}
    sums, counts, frames, boxes = [0.0] * n, [0] * n, [], []
    section_top = columns_top = 0.0

    def close():
        nonlocal section_top
        if boxes:
            bottom = columns_top + max(sums) * colw + (max(counts) - 1) * gap
            boxes[-1][1] = bottom - section_top
            section_top = bottom + gap

    for index, char in enumerate(column):
        if index in starts:
            close()
            boxes.append([section_top, 0.0])
            columns_top = section_top + header + gap
            sums, counts = [0.0] * n, [0] * n
        c = int(char, 36)
        assert c < n, f"item {index} in column {c} of {n}"
        frames.append([c * (colw + gap), columns_top + sums[c] * colw + counts[c] * gap, colw, ratios[index] * colw])
        sums[c] += ratios[index]
        counts[c] += 1
    close()
    return frames, boxes


ROW_SCALE = 100_000_000


def place_rows(rows, row_ratios, scale, target, gap, width):
    """Every item's frame [x, y, width, height] at a wall `width` in justified rows, by the
    README's formulas: a row of n items whose ratios add up to R (in 1/scale) is
    c·(width - (n-1)·gap) tall, c = floor(10^8·scale / R) / 10^8, the last row at most `target`;
    a row starts a gap below the one above; a tile is at P·H + j·gap."""
    frames, start, top = [], 0, 0.0
    for number, n in enumerate(rows):
        units = row_ratios[start:start + n]
        coefficient = (ROW_SCALE * scale // max(1, sum(units))) / ROW_SCALE
        height = coefficient * (width - (n - 1) * gap)
        if number == len(rows) - 1:
            height = min(target, height)
        before = 0
        for j, u in enumerate(units):
            frames.append([before / scale * height + j * gap, top, u / scale * height, height])
            before += u
        top += height + gap
        start += n
    return frames
