//! Generated PNG images of any size: a grid of flat colour blocks, which
//! compresses to a few kilobytes even at 4096 pixels.

/// A `width`×`height` RGB PNG; `seed` varies the colours.
pub fn grid(width: u32, height: u32, seed: u8) -> Vec<u8> {
    const BLOCKS: u32 = 8;
    const PALETTE: [[u8; 3]; 6] = [
        [52, 81, 209],
        [142, 162, 255],
        [31, 122, 77],
        [240, 179, 90],
        [191, 64, 128],
        [40, 170, 190],
    ];
    let (w, h) = (width.max(1), height.max(1));
    let from = PALETTE[usize::from(seed) % PALETTE.len()];
    let to = PALETTE[(usize::from(seed) + 3) % PALETTE.len()];
    // Blend from one palette colour to another across the diagonal of blocks.
    let colour = |column: u32, row: u32| -> [u8; 3] {
        let t = (column + row) * 255 / (2 * (BLOCKS - 1));
        let mix = |a: u8, b: u8| {
            let value = (u32::from(a) * (255 - t) + u32::from(b) * t) / 255;
            u8::try_from(value).unwrap_or(u8::MAX)
        };
        [
            mix(from[0], to[0]),
            mix(from[1], to[1]),
            mix(from[2], to[2]),
        ]
    };
    let mut pixels = Vec::with_capacity(w as usize * h as usize * 3);
    let mut row_cache: Option<(u32, Vec<u8>)> = None;
    for y in 0..h {
        let block_row = y * BLOCKS / h;
        let row = match &row_cache {
            Some((cached, row)) if *cached == block_row => row,
            _ => {
                let row: Vec<u8> = (0..w)
                    .flat_map(|x| colour(x * BLOCKS / w, block_row))
                    .collect();
                &row_cache.insert((block_row, row)).1
            }
        };
        pixels.extend_from_slice(row);
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    // Writing to a Vec of the right length cannot fail; an empty result is
    // answered as a server error by the caller.
    let written = encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(&pixels));
    if written.is_err() {
        out.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_png_of_the_given_size() {
        let bytes = grid(300, 200, 7);
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let reader = decoder.read_info().unwrap();
        assert_eq!((reader.info().width, reader.info().height), (300, 200));
    }
}
