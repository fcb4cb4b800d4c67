//! Image data sets in the IDX format, as LeCun, Cortes and Burges distribute MNIST (and Zalando
//! Research Fashion-MNIST): a big-endian header (two zero bytes, the element type, the number of
//! dimensions, then each dimension as a u32) followed by the elements. The page fetches the files
//! only when a link chooses them; the parser refuses anything else with a typed error.

use super::data::{Dataset, Examples};
use crate::error::{Error, Result};

/// The IDX element type of unsigned bytes (the only one these files use).
const UNSIGNED_BYTE: u8 = 0x08;
/// Most images a file may hold (MNIST's training set has 60 000).
pub const MAX_IMAGES: usize = 100_000;
/// Largest side of an image, in pixels (MNIST's are 28).
pub const MAX_SIDE: usize = 64;

/// Greyscale images of one size, row-major, one byte a pixel (0 = background).
#[derive(Debug, Clone, PartialEq)]
pub struct Images {
    /// Number of images.
    pub count: usize,
    /// Rows of pixels per image.
    pub height: usize,
    /// Pixels per row.
    pub width: usize,
    /// `count × height × width` bytes.
    pub pixels: Vec<u8>,
}

impl Images {
    /// Pixels per image.
    pub fn size(&self) -> usize {
        self.height * self.width
    }

    /// Image `i`'s pixels.
    pub fn image(&self, i: usize) -> &[u8] {
        &self.pixels[i * self.size()..(i + 1) * self.size()]
    }
}

/// Labelled images as a trainer reads them (each pixel / 255), kept as bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageRows {
    /// The images.
    pub images: Images,
    /// Their labels.
    pub labels: Vec<u8>,
}

impl ImageRows {
    /// The images with their labels.
    ///
    /// # Errors
    /// As many labels as images are needed.
    pub fn new(images: Images, labels: Vec<u8>) -> Result<Self> {
        if labels.len() != images.count {
            return Err(Error::invalid(
                "labels",
                labels.len(),
                format!("labels for {} images", images.count),
            ));
        }
        Ok(ImageRows { images, labels })
    }

    /// The first `n` images (all when n is larger).
    pub fn first(&self, n: usize) -> ImageRows {
        let n = n.min(self.images.count);
        ImageRows {
            images: Images {
                count: n,
                pixels: self.images.pixels[..n * self.images.size()].to_vec(),
                ..self.images
            },
            labels: self.labels[..n].to_vec(),
        }
    }
}

impl Examples for ImageRows {
    fn rows(&self) -> usize {
        self.images.count
    }
    fn dim(&self) -> usize {
        self.images.size()
    }
    fn label(&self, i: usize) -> f64 {
        f64::from(self.labels[i])
    }
    fn features<'s>(&'s self, i: usize, buf: &'s mut Vec<f64>) -> &'s [f64] {
        buf.clear();
        buf.extend(self.images.image(i).iter().map(|&p| f64::from(p) / 255.0));
        buf
    }
}

/// The header's dimensions and where the elements start, for a file of `rank` dimensions.
fn header(name: &'static str, bytes: &[u8], rank: usize) -> Result<(Vec<usize>, usize)> {
    let refuse = |why: String| Err(Error::invalid(name, format!("{} bytes", bytes.len()), why));
    if bytes.len() < 4 || bytes[0] != 0 || bytes[1] != 0 {
        return refuse("is not an IDX file (it must start with two zero bytes)".into());
    }
    if bytes[2] != UNSIGNED_BYTE {
        return refuse(format!(
            "holds elements of type {:#04x}; only unsigned bytes (0x08) are read",
            bytes[2]
        ));
    }
    if usize::from(bytes[3]) != rank {
        return refuse(format!(
            "has {} dimensions where {rank} are expected",
            bytes[3]
        ));
    }
    let start = 4 + 4 * rank;
    if bytes.len() < start {
        return refuse("ends inside its header".into());
    }
    let dims: Vec<usize> = bytes[4..start]
        .chunks_exact(4)
        .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
        .collect();
    // Each dimension is below 2³² and there are at most three: no overflow in u128.
    let elements = dims.iter().map(|&d| d as u128).product::<u128>();
    if elements != (bytes.len() - start) as u128 {
        return refuse(format!(
            "declares {elements} elements ({dims:?}) but holds {}",
            bytes.len() - start
        ));
    }
    Ok((dims, start))
}

/// Parses an IDX file of images (three dimensions: count, height, width).
///
/// # Errors
/// Not an IDX file of unsigned bytes, not three dimensions, a size that does not match the bytes,
/// no images or more than [`MAX_IMAGES`], or a side of 0 or more than [`MAX_SIDE`].
pub fn parse_images(bytes: &[u8]) -> Result<Images> {
    let (dims, start) = header("images", bytes, 3)?;
    let (count, height, width) = (dims[0], dims[1], dims[2]);
    if count == 0 || count > MAX_IMAGES {
        return Err(Error::invalid(
            "images",
            count,
            format!("images is not 1 to {MAX_IMAGES}"),
        ));
    }
    if !(1..=MAX_SIDE).contains(&height) || !(1..=MAX_SIDE).contains(&width) {
        return Err(Error::invalid(
            "images",
            format!("{height} × {width}"),
            format!("is not a size of 1 to {MAX_SIDE} pixels a side"),
        ));
    }
    Ok(Images {
        count,
        height,
        width,
        pixels: bytes[start..].to_vec(),
    })
}

/// Parses an IDX file of labels (one dimension), each below `classes`.
///
/// # Errors
/// Not an IDX file of unsigned bytes in one dimension, a size that does not match the bytes, or a
/// label of `classes` or more.
pub fn parse_labels(bytes: &[u8], classes: usize) -> Result<Vec<u8>> {
    let (_, start) = header("labels", bytes, 1)?;
    let labels = &bytes[start..];
    if let Some(i) = labels.iter().position(|&l| usize::from(l) >= classes) {
        return Err(Error::invalid(
            "labels",
            labels[i],
            format!("is not a class 0 to {} (label {})", classes - 1, i + 1),
        ));
    }
    Ok(labels.to_vec())
}

/// An image data set's training and test images.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageSplit {
    /// Training images.
    pub train: ImageRows,
    /// Test images.
    pub test: ImageRows,
}

impl ImageSplit {
    /// Parses the four IDX files of a set like MNIST (training images and labels, test images and
    /// labels), labels below `classes`.
    ///
    /// # Errors
    /// A malformed file, labels that do not match their images in number, or test images of another
    /// size than the training images.
    pub fn parse(files: [&[u8]; 4], classes: usize) -> Result<ImageSplit> {
        let [train_images, train_labels, test_images, test_labels] = files;
        let train = ImageRows::new(
            parse_images(train_images)?,
            parse_labels(train_labels, classes)?,
        )?;
        let test = ImageRows::new(
            parse_images(test_images)?,
            parse_labels(test_labels, classes)?,
        )?;
        let size = |r: &ImageRows| (r.images.height, r.images.width);
        if size(&train) != size(&test) {
            return Err(Error::invalid(
                "images",
                format!("{:?}", size(&test)),
                format!(
                    "test images must have the training images' size {:?}",
                    size(&train)
                ),
            ));
        }
        Ok(ImageSplit { train, test })
    }
}

/// The images as a [`Dataset`] of f64 features (each pixel / 255, so in [0, 1]): 8 bytes a pixel,
/// for small sets and tests ([`ImageRows`] keeps one byte).
pub fn labelled(rows: &ImageRows) -> Dataset {
    let images = &rows.images;
    let names = (0..images.height)
        .flat_map(|r| (0..images.width).map(move |c| format!("pixel ({r}, {c})")))
        .collect();
    Dataset {
        x: images
            .pixels
            .iter()
            .map(|&p| f64::from(p) / 255.0)
            .collect(),
        y: rows.labels.iter().map(|&l| f64::from(l)).collect(),
        dim: images.size(),
        names,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An IDX file of unsigned bytes with these dimensions and elements.
    pub fn idx(dims: &[u32], elements: &[u8]) -> Vec<u8> {
        let mut out = vec![0, 0, UNSIGNED_BYTE, dims.len() as u8];
        for d in dims {
            out.extend_from_slice(&d.to_be_bytes());
        }
        out.extend_from_slice(elements);
        out
    }

    #[test]
    fn reads_images_and_labels_as_the_format_says() {
        let pixels: Vec<u8> = (0..2 * 3 * 2).map(|p| (p * 20) as u8).collect();
        let images = parse_images(&idx(&[2, 3, 2], &pixels)).unwrap();
        assert_eq!((images.count, images.height, images.width), (2, 3, 2));
        assert_eq!(images.image(1), &pixels[6..]);
        let labels = parse_labels(&idx(&[2], &[7, 0]), 10).unwrap();
        let rows = ImageRows::new(images, labels).unwrap();
        let data = labelled(&rows);
        let mut buf = Vec::new();
        assert_eq!(rows.features(1, &mut buf), data.row(1));
        assert_eq!(rows.label(0), 7.0);
        assert_eq!(rows.first(1).rows(), 1);
        assert_eq!((data.rows(), data.dim), (2, 6));
        assert_eq!(data.y, [7.0, 0.0]);
        assert_eq!(data.row(0)[1], 20.0 / 255.0);
        assert_eq!(data.names[3], "pixel (1, 1)");
    }

    /// Every malformed file is refused with a reason, never a panic: truncations at every length, a
    /// wrong magic, type, rank or size, and labels out of range.
    #[test]
    fn refuses_every_malformed_file() {
        let good = idx(&[2, 3, 2], &[9; 12]);
        for cut in 0..good.len() {
            assert!(parse_images(&good[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = good.clone();
        longer.push(0);
        assert!(parse_images(&longer).is_err());
        for (at, value) in [(0, 1), (1, 8), (2, 0x0d), (3, 2)] {
            let mut bad = good.clone();
            bad[at] = value;
            let e = parse_images(&bad).unwrap_err().to_string();
            assert!(e.contains("images"), "{e}");
        }
        assert!(parse_images(&idx(&[0, 3, 2], &[])).is_err());
        assert!(parse_images(&idx(&[1, 65, 1], &[0; 65])).is_err());
        // A header declaring 2³² × 2³² × 2³² elements: refused without overflow.
        assert!(parse_images(&idx(&[u32::MAX; 3], &[])).is_err());
        let e = parse_labels(&idx(&[3], &[1, 10, 2]), 10)
            .unwrap_err()
            .to_string();
        assert!(e.contains("label 2"), "{e}");
        assert!(parse_labels(&idx(&[2, 1], &[1, 2]), 10).is_err());
        let images = parse_images(&good).unwrap();
        assert!(ImageRows::new(images, vec![1]).is_err());
        let labels = idx(&[2], &[0, 1]);
        let other = idx(&[2, 2, 3], &[9; 12]);
        assert!(ImageSplit::parse([&good, &labels, &good, &labels], 10).is_ok());
        assert!(ImageSplit::parse([&good, &labels, &other, &labels], 10).is_err());
    }
}
