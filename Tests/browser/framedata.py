"""Reads an album's frame data as the README documents it (frames.json version 2 and its
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
    breakpoints (minWidth, columns, referenceWidth, columnWidth, contentHeight, frames)."""
    path = pathlib.Path(frames_json)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == 2, f"{path}: version {data['version']}"
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
    breakpoints = []
    for bp in data["breakpoints"]:
        n, width = bp["columns"], bp["referenceWidth"]
        colw = (width - (n - 1) * gap) / n
        sums, counts, frames = [0.0] * n, [0] * n, []
        assert len(bp["column"]) == count, f"{path}: column string of {len(bp['column'])} for {count} items"
        for index, char in enumerate(bp["column"]):
            c = int(char, 36)
            assert c < n, f"{path}: item {index} in column {c} of {n}"
            frames.append([c * (colw + gap), sums[c] * colw + counts[c] * gap, colw, ratios[index] * colw])
            sums[c] += ratios[index]
            counts[c] += 1
        breakpoints.append(dict(bp, frames=frames))
    return {"gap": gap, "count": count, "staticCount": data["staticCount"], "items": items,
            "breakpoints": breakpoints, "raw": data}
