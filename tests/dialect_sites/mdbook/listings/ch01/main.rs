fn main() {
    // ANCHOR: count
    let strokes = 20;
    println!("{strokes} strokes");
    // ANCHOR_END: count
}
