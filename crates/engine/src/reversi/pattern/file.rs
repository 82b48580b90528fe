//! The weights' files: the compressed format the project writes and ships, and the uncompressed one it still
//! reads. Why compressed: every retrain adds the whole file to git's history, and the compressed one is a
//! third of the size (`docs/engines.md`, "Weights").

use super::Weights;

/// The uncompressed format: a magic line, then each non-zero weight as its index (u32, little-endian) and
/// value (i16).
const MAGIC: &[u8; 16] = b"gridplay-rev-pw3";
/// The compressed format: the non-zero weights' count, index gaps and zigzag values as LEB128 varints, the
/// whole deflated (about 30% of the uncompressed format's size).
const MAGIC_DEFLATED: &[u8; 16] = b"gridplay-rev-pw4";
/// The two formats of the earlier layout, which had no table features: their indices mean other weights.
const MAGICS_BEFORE_TABLES: [&[u8; 16]; 2] = [b"gridplay-rev-pw1", b"gridplay-rev-pw2"];

/// Why a weights file could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WeightsError {
    #[error(
        "not a gridplay Reversi weights file (the first 16 bytes are not `gridplay-rev-pw3` or `gridplay-rev-pw4`)"
    )]
    Magic,
    #[error(
        "weights of an earlier evaluation layout (`gridplay-rev-pw1` or `pw2`, without the mobility, potential mobility and parity tables): train them again with this version"
    )]
    EarlierLayout,
    #[error("the compressed weights do not inflate: {0}")]
    Inflate(String),
    #[error("the weights file is cut short at byte {0}")]
    Truncated(usize),
    #[error("weight index {0} is beyond the {1} weights of this layout")]
    Index(u32, usize),
}

impl Weights {
    /// Reads the sparse file format; the weights are made symmetric ([`Weights::symmetrize`]).
    ///
    /// # Errors
    ///
    /// A wrong header, a short file, or an index outside the layout.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if let Some(packed) = bytes.strip_prefix(MAGIC_DEFLATED.as_slice()) {
            return Weights::from_deflated(packed);
        }
        if MAGICS_BEFORE_TABLES
            .iter()
            .any(|m| bytes.starts_with(m.as_slice()))
        {
            return Err(WeightsError::EarlierLayout);
        }
        let rest = bytes.strip_prefix(MAGIC.as_slice()).ok_or(WeightsError::Magic)?;
        let mut w = Weights::zero();
        let len = w.values.len();
        for (i, chunk) in rest.chunks(6).enumerate() {
            if chunk.len() != 6 {
                return Err(WeightsError::Truncated(MAGIC.len() + i * 6));
            }
            let index = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
            let value = i16::from_le_bytes([chunk[4], chunk[5]]);
            *w.values
                .get_mut(index as usize)
                .ok_or(WeightsError::Index(index, len))? = value;
        }
        w.symmetrize();
        Ok(w)
    }

    fn from_deflated(packed: &[u8]) -> Result<Weights, WeightsError> {
        use std::io::Read;
        let mut raw = Vec::new();
        flate2::read::DeflateDecoder::new(packed)
            .read_to_end(&mut raw)
            .map_err(|e| WeightsError::Inflate(e.to_string()))?;
        let mut at = 0;
        let mut next = || -> Result<u64, WeightsError> {
            let mut v = 0u64;
            for shift in (0..64).step_by(7) {
                let b = *raw.get(at).ok_or(WeightsError::Truncated(at))?;
                at += 1;
                v |= u64::from(b & 0x7f) << shift;
                if b & 0x80 == 0 {
                    return Ok(v);
                }
            }
            Err(WeightsError::Truncated(at))
        };
        let count = usize::try_from(next()?).map_err(|_| WeightsError::Truncated(0))?;
        let mut w = Weights::zero();
        let len = w.values.len();
        let mut indices = Vec::with_capacity(count.min(len));
        let mut index = 0u64;
        for k in 0..count {
            index += next()? + u64::from(k > 0);
            indices.push(index);
        }
        for index in indices {
            let z = next()?;
            let value = ((z >> 1) as i64 ^ -((z & 1) as i64)) as i16;
            let i = u32::try_from(index).unwrap_or(u32::MAX);
            *w.values
                .get_mut(index as usize)
                .ok_or(WeightsError::Index(i, len))? = value;
        }
        w.symmetrize();
        Ok(w)
    }

    /// Writes the compressed file format (see [`Weights::from_bytes`], which reads both formats).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        use std::io::Write;
        let mut raw = Vec::new();
        let push = |raw: &mut Vec<u8>, mut v: u64| loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                raw.push(b);
                break;
            }
            raw.push(b | 0x80);
        };
        let nonzero: Vec<(usize, i16)> = self
            .values
            .iter()
            .copied()
            .enumerate()
            .filter(|&(_, v)| v != 0)
            .collect();
        push(&mut raw, nonzero.len() as u64);
        let mut last = None;
        for &(i, _) in &nonzero {
            push(&mut raw, last.map_or(i, |l: usize| i - l - 1) as u64);
            last = Some(i);
        }
        for &(_, v) in &nonzero {
            push(&mut raw, ((i64::from(v) << 1) ^ (i64::from(v) >> 63)) as u64);
        }
        let mut z = flate2::write::DeflateEncoder::new(MAGIC_DEFLATED.to_vec(), flate2::Compression::best());
        z.write_all(&raw).expect("writing to memory cannot fail");
        z.finish().expect("writing to memory cannot fail")
    }

    /// Writes the uncompressed format.
    #[must_use]
    pub fn to_bytes_uncompressed(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for (i, &v) in self.values.iter().enumerate() {
            if v != 0 {
                out.extend_from_slice(&(i as u32).to_le_bytes());
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out
    }

    /// Reads a weights file.
    ///
    /// # Errors
    ///
    /// The file and what is wrong with it.
    pub fn read_file(path: &std::path::Path) -> Result<Weights, crate::DataError> {
        crate::data::read_with(path, |bytes| {
            Weights::from_bytes(bytes).map_err(|e| crate::DataError::format("reversi weights", e.to_string()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::pattern::Layout;

    #[test]
    fn the_file_formats_round_trip_and_refuse_bad_files() {
        let mut w = Weights::zero();
        w.values[7] = -300;
        w.values[Layout::get().per_stage * 5 + 2] = 41;
        w.values[Layout::get().per_stage * 12 + 9] = i16::MIN;
        w.values[Layout::get().per_stage * 12 + 10] = i16::MAX;
        w.symmetrize();
        let nonzero = w.values.iter().filter(|&&v| v != 0).count();
        assert!(nonzero >= 4);
        // The uncompressed format: six bytes a weight.
        let plain = w.to_bytes_uncompressed();
        assert_eq!(plain.len(), 16 + nonzero * 6);
        assert_eq!(Weights::from_bytes(&plain).unwrap().values, w.values);
        assert_eq!(
            Weights::from_bytes(&plain[..plain.len() - 1]).unwrap_err(),
            WeightsError::Truncated(plain.len() - 6)
        );
        let mut far = MAGIC.to_vec();
        far.extend_from_slice(&u32::MAX.to_le_bytes());
        far.extend_from_slice(&1i16.to_le_bytes());
        assert!(matches!(
            Weights::from_bytes(&far),
            Err(WeightsError::Index(u32::MAX, _))
        ));
        // The compressed format reads back the same weights, and a cut file is refused.
        let packed = w.to_bytes();
        assert!(packed.starts_with(MAGIC_DEFLATED) && packed.len() < plain.len());
        assert_eq!(Weights::from_bytes(&packed).unwrap().values, w.values);
        assert!(Weights::from_bytes(&packed[..packed.len() - 4]).is_err());
        assert_eq!(
            Weights::from_bytes(b"not weights at all").unwrap_err(),
            WeightsError::Magic
        );
        // A file of the layout before the table features is refused, not misread.
        let mut earlier = b"gridplay-rev-pw2".to_vec();
        earlier.extend_from_slice(&packed[16..]);
        assert_eq!(
            Weights::from_bytes(&earlier).unwrap_err(),
            WeightsError::EarlierLayout
        );
    }

    /// The shipped file is the compressed form of the weights it held before compression (the same values).
    #[test]
    fn the_shipped_weights_are_compressed() {
        let bytes = include_bytes!("../weights.bin");
        assert!(bytes.starts_with(MAGIC_DEFLATED));
        let w = Weights::shipped();
        assert_eq!(Weights::from_bytes(&w.to_bytes()).unwrap().values, w.values);
    }
}
