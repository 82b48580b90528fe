use crate::{DynGame, Game, GameModule, GameSpec, SpecError};

/// A game as the registry lists it: its name and its module's description.
#[derive(Clone, Debug)]
pub struct RegistryEntry {
    pub name: &'static str,
    pub module: &'static GameModule,
    build: fn(&GameSpec) -> Result<Box<dyn DynGame>, SpecError>,
    restore: fn(&GameSpec) -> Result<Box<dyn DynGame>, SpecError>,
}

/// A position that shows a rule: the game variant, the moves that lead there from the start, and what to see.
/// The board and its legal moves always come from the rules library, so an example cannot disagree with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleExample {
    /// The name the rules document places it by (`[try: ID]` on a line of its own).
    pub id: &'static str,
    pub title: &'static str,
    /// What the example shows, and what to try.
    pub text: &'static str,
    /// A game spec (`reversi`, `tactics:size=16`...).
    pub spec: &'static str,
    /// The moves from the start position.
    pub moves: &'static [&'static str],
}

/// The games by name. The server and the command line pick a game with a spec string through it.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    entries: Vec<RegistryEntry>,
}

fn build<G: Game>(spec: &GameSpec) -> Result<Box<dyn DynGame>, SpecError> {
    Ok(Box::new(G::from_spec(spec)?))
}

fn restore<G: Game>(spec: &GameSpec) -> Result<Box<dyn DynGame>, SpecError> {
    Ok(Box::new(G::from_stored_spec(spec)?))
}

impl Registry {
    #[must_use]
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds a game under `G::NAME`, described by its module.
    ///
    /// # Panics
    ///
    /// If a game of that name is already registered: that is a programming error.
    pub fn register<G: Game>(&mut self, module: &'static GameModule) -> &mut Registry {
        assert!(self.entry(G::NAME).is_none(), "game {} registered twice", G::NAME);
        self.entries.push(RegistryEntry {
            name: G::NAME,
            module,
            build: build::<G>,
            restore: restore::<G>,
        });
        self
    }

    #[must_use]
    pub fn entries(&self) -> &[RegistryEntry] {
        &self.entries
    }

    #[must_use]
    pub fn entry(&self, name: &str) -> Option<&RegistryEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// Builds a game variant from a parsed spec.
    pub fn build(&self, spec: &GameSpec) -> Result<Box<dyn DynGame>, SpecError> {
        (self.known(spec)?.build)(spec)
    }

    fn known(&self, spec: &GameSpec) -> Result<&RegistryEntry, SpecError> {
        self.entry(spec.name()).ok_or_else(|| SpecError::UnknownGame {
            name: spec.name().to_owned(),
            known: self.entries.iter().map(|e| e.name.to_owned()).collect(),
        })
    }

    /// Builds the variant of a stored game ([`Game::from_stored_spec`]): what was accepted once still loads.
    pub fn restore(&self, spec: &str) -> Result<Box<dyn DynGame>, SpecError> {
        let spec = spec.parse()?;
        (self.known(&spec)?.restore)(&spec)
    }

    /// Parses a spec string and builds the game variant.
    pub fn game(&self, spec: &str) -> Result<Box<dyn DynGame>, SpecError> {
        self.build(&spec.parse()?)
    }
}
