//! The engine's maps (tasks followed, durations seen per kind) as a list
//! of pairs: a page follows tens of tasks, not thousands, and a list costs
//! the browser's wasm far less code than a hash map (and keeps the order
//! tasks were watched in).

/// A map kept as a list of `(key, value)` pairs, in insertion order.
#[derive(Debug, Clone)]
pub(crate) struct Table<K, V>(Vec<(K, V)>);

impl<K, V> Default for Table<K, V> {
    fn default() -> Self {
        Table(Vec::new())
    }
}

impl<K: PartialEq, V> Table<K, V> {
    fn position(&self, key: &K) -> Option<usize> {
        self.0.iter().position(|(have, _)| have == key)
    }

    /// The value under `key`.
    pub(crate) fn get(&self, key: &K) -> Option<&V> {
        self.position(key).map(|at| &self.0[at].1)
    }

    /// The value under `key`, to change.
    pub(crate) fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        let at = self.position(key)?;
        Some(&mut self.0[at].1)
    }

    /// Whether `key` has a value.
    pub(crate) fn contains_key(&self, key: &K) -> bool {
        self.position(key).is_some()
    }

    /// Put `value` under `key`, in place of any value there.
    pub(crate) fn insert(&mut self, key: K, value: V) {
        match self.position(&key) {
            Some(at) => self.0[at].1 = value,
            None => self.0.push((key, value)),
        }
    }

    /// Take the value under `key` out.
    pub(crate) fn remove(&mut self, key: &K) -> Option<V> {
        let at = self.position(key)?;
        Some(self.0.remove(at).1)
    }

    /// The value under `key`, made with `V::default()` if there is none.
    pub(crate) fn or_default(&mut self, key: K) -> &mut V
    where
        V: Default,
    {
        let at = match self.position(&key) {
            Some(at) => at,
            None => {
                self.0.push((key, V::default()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }

    /// How many keys have values.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Every pair.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.0.iter().map(|(key, value)| (key, value))
    }

    /// Every pair, the values to change.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = (&K, &mut V)> {
        self.0.iter_mut().map(|(key, value)| (&*key, value))
    }

    /// Every value.
    pub(crate) fn values(&self) -> impl Iterator<Item = &V> {
        self.0.iter().map(|(_, value)| value)
    }

    /// Every value, to change.
    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.0.iter_mut().map(|(_, value)| value)
    }
}
