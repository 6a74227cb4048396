import Catalog
import Foundation
import Imaging
import Support

/// The search index made again from the one in the site, when the photos' words and filters are
/// all as that index has them (a photo edited, re-exported or rotated, say): its term shards and
/// filters are then what they were, and only the record chunks (`p/<n>.gz`) that hold a changed
/// photo, and the entry file, whose version covers every file, are written. What the index in the
/// site was made from is in the catalog, album by album (``SearchIndexAlbum``); an album whose
/// input key is the recorded one has the same photos, documents and words (the key covers them);
/// another one's documents are made (or taken from the catalog under its new key) and their
/// words compared. Anything else (an album added, gone or of another size, other words, another
/// language, an index file that is not all there) makes the whole index, as before.
struct SearchIndexUpdate {
    /// The files to write, paths in the search folder, the entry file last.
    var files: [(path: String, bytes: [UInt8])]
    /// The index's other files, as they are in the site.
    var kept: [String]
    /// The index's albums, for the catalog.
    var albums: [SearchIndexAlbum]
}

extension PageRenderer {
    /// The update of the search index in the site (``SearchIndexUpdate``), or nil when the index
    /// has to be made whole. `earlier` are the albums the catalog recorded for it; `earlierFiles`,
    /// its files (paths in the search folder) and `contents`, their bytes as they are in the
    /// site. `keys`, `cached` and `made` are as for ``addSearchDocuments(to:jobs:keys:cached:made:)``:
    /// the documents made for a changed album are handed to `made` even when the index is then
    /// made whole (which takes them from the catalog).
    func searchIndexUpdate(
        earlier: [SearchIndexAlbum], earlierFiles: Set<String>, contents: @Sendable (String) -> [UInt8]?, jobs: Int,
        keys: (Int) -> String?, cached: (String) -> [SearchDocumentRun.Entry]?,
        made: ([SearchDocumentRun]) throws(SiteError) -> Void
    ) throws(SiteError) -> SearchIndexUpdate? {
        let albums = searchAlbums
        guard albums.count == earlier.count else { return nil }
        let language = options.language
        // Each album's first photo's id, and the documents of the albums whose key changed.
        var offsets: [Int] = []
        var total = 0
        var changed: [Int: [SearchDocumentRun.Entry]] = [:]
        var indexAlbums: [SearchIndexAlbum] = []
        for (number, album) in albums.enumerated() {
            guard let key = keys(album) else { return nil }
            let count = plan.albums[album].photos.count
            guard count == earlier[number].photos else { return nil }
            offsets.append(total)
            total += count
            if key == earlier[number].key {
                indexAlbums.append(earlier[number])
                continue
            }
            var entries: [SearchDocumentRun.Entry]
            if let kept = cached(key), kept.count == count {
                entries = kept
            } else {
                let photos = plan.albums[album].photos
                entries = Array(parallelMap(indexRuns(photos.count, length: 256), jobs: jobs) { part in
                    photos[part].map { searchEntry($0, album: album, number: number) }
                }.joined())
                try made(indexRuns(entries.count, length: Self.keptRunLength).map { run in
                    SearchDocumentRun(album: key, first: run.lowerBound, entries: Array(entries[run]))
                })
            }
            let words = SearchWordsKey.of(entries, language: language)
            guard words == earlier[number].words else { return nil }
            for index in entries.indices { entries[index].document.album = number }
            changed[number] = entries
            indexAlbums.append(SearchIndexAlbum(key: key, photos: count, words: words))
        }

        // The earlier index's entry file says what the other files are.
        let chunk = SearchIndexBuilder.chunk
        let chunks = (total + chunk - 1) / chunk
        let stemmer = SearchIndexBuilder(language: language).stemmerAlgorithm
        guard let compressed = contents(SearchIndexBuilder.entryFile), let json = Gzip.decompress(compressed, limit: 1 << 26),
              let entry = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any],
              entry["format"] as? Int == SearchIndexBuilder.format, entry["language"] as? String == language.identifier,
              entry["stemmer"] as? String == stemmer, entry["photos"] as? Int == total, entry["chunk"] as? Int == chunk,
              let shards = entry["shards"] as? [String], let filters = entry["filters"] as? [String]
        else { return nil }
        var expected = Set(shards.map { "t/\($0).gz" })
        expected.formUnion((0..<chunks).map { "p/\($0).gz" })
        expected.formUnion(["f.gz", SearchIndexBuilder.entryFile])
        guard expected == earlierFiles else { return nil }

        // The record chunks that hold a changed photo, made again with their other photos.
        var touched = Set<Int>()
        for (number, entries) in changed where !entries.isEmpty {
            touched.formUnion((offsets[number] / chunk)...((offsets[number] + entries.count - 1) / chunk))
        }
        var unchanged: [Int: [SearchDocumentRun.Entry]] = [:]
        var written: [(path: String, bytes: [UInt8])] = []
        for number in touched.sorted() {
            let ids = (number * chunk)..<min(number * chunk + chunk, total)
            var photos: [SearchDocument] = []
            for id in ids {
                // (The album of `id`: the last whose first photo's id is not above it.)
                var low = 0, high = offsets.count - 1
                while low < high {
                    let middle = (low + high + 1) / 2
                    if offsets[middle] <= id { low = middle } else { high = middle - 1 }
                }
                if let entries = changed[low] {
                    photos.append(entries[id - offsets[low]].document)
                    continue
                }
                if unchanged[low] == nil {
                    guard let kept = cached(earlier[low].key), kept.count == earlier[low].photos else { return nil }
                    unchanged[low] = kept
                }
                var photo = unchanged[low]![id - offsets[low]].document
                photo.album = low
                photos.append(photo)
            }
            written.append(SearchIndexBuilder.recordChunk(number, photos: photos))
        }

        // The entry file's version covers every other file: those kept are read from the site.
        let writtenPaths = Set(written.map(\.path))
        let kept = earlierFiles.subtracting(writtenPaths).subtracting([SearchIndexBuilder.entryFile]).sorted()
        let keptBytes = parallelMap(kept, jobs: jobs, contents)
        var files = written
        for (path, bytes) in zip(kept, keptBytes) {
            guard let bytes else { return nil }
            files.append((path, bytes))
        }
        let entryFile = SearchIndexBuilder.entry(files: files, language: language, stemmer: stemmer, photos: total,
                                                 albums: albums.map { plan.albums[$0].title }, shards: shards, filters: filters)
        return SearchIndexUpdate(files: written + [entryFile], kept: kept, albums: indexAlbums)
    }
}
