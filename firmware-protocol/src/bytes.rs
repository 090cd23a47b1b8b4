//! Bounds-checked little-endian writing into and reading from byte slices.

/// Writes bytes in order into a slice, failing instead of overrunning it.
#[derive(Debug)]
pub struct Writer<'a> {
    /// Where the bytes go.
    out: &'a mut [u8],
    /// How many bytes were written.
    len: usize,
}

/// The slice given to a [`Writer`] is full.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full;

impl<'a> Writer<'a> {
    /// A writer at the start of `out`.
    pub fn new(out: &'a mut [u8]) -> Writer<'a> {
        Writer { out, len: 0 }
    }

    /// How many bytes were written.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The bytes written so far.
    pub fn written(&self) -> &[u8] {
        self.out.get(..self.len).unwrap_or_default()
    }

    /// Appends one byte.
    pub fn put(&mut self, byte: u8) -> Result<(), Full> {
        let slot = self.out.get_mut(self.len).ok_or(Full)?;
        *slot = byte;
        self.len += 1;
        Ok(())
    }

    /// Appends bytes.
    pub fn put_all(&mut self, bytes: &[u8]) -> Result<(), Full> {
        bytes.iter().try_for_each(|&byte| self.put(byte))
    }

    /// Overwrites the byte at `index`, already written.
    pub fn set(&mut self, index: usize, byte: u8) -> Result<(), Full> {
        let slot = self.out.get_mut(..self.len).and_then(|w| w.get_mut(index));
        *slot.ok_or(Full)? = byte;
        Ok(())
    }
}

/// Reads bytes in order from a slice; every read fails once the slice is exhausted.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    /// The bytes not read yet.
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { rest: bytes }
    }

    /// Whether every byte was read.
    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The next `N` bytes.
    pub fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.rest.split_first_chunk::<N>()?;
        self.rest = rest;
        Some(*head)
    }

    /// The next byte.
    pub fn u8(&mut self) -> Option<u8> {
        self.array::<1>().map(|[byte]| byte)
    }

    /// The next little-endian `u32`.
    pub fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }

    /// The next little-endian `u64`.
    pub fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }
}
