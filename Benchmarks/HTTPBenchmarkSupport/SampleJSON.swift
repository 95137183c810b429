/// A JSON document shaped like a queue snapshot, at least `size` bytes long: the body both
/// HTTP benchmarks have nginx serve as their reference.
public func sampleJSON(atLeast size: Int) -> [UInt8] {
    var items: [String] = []
    var length = 0
    var index = 0
    while length < size {
        let item = #"{"id":"item-\#(index)","title":"Sample item \#(index)","url":"http://127.0.0.1/media/vod-ts/index.m3u8","status":"readyToPlay","duration":12.0,"currentTime":0.0}"#
        items.append(item)
        length += item.utf8.count + 1
        index += 1
    }
    return Array(#"{"items":[\#(items.joined(separator: ","))]}"#.utf8)
}
