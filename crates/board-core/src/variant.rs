//! Typed variants: each game names its variants with an enum made by
//! [`variants!`](crate::variants), so a variant is checked once, when it is
//! parsed, and never again.

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use crate::UnknownVariant;

/// The variants of one game: a small `Copy` enum whose `Display` is the
/// variant's name and whose `FromStr` reads it back (case-insensitively).
/// `Default` is the game's default variant, the first of [`ALL`](Variant::ALL).
///
/// Game crates make theirs with [`variants!`](crate::variants).
pub trait Variant:
    Copy
    + Eq
    + Hash
    + fmt::Debug
    + fmt::Display
    + FromStr<Err = UnknownVariant>
    + Default
    + Send
    + Sync
    + 'static
{
    /// The game's name, for error messages.
    const GAME: &'static str;
    /// Every variant, the default first.
    const ALL: &'static [Self];
    /// Their names, in the same order.
    const NAMES: &'static [&'static str];

    /// The name, as on command lines and in the protocol.
    fn name(self) -> &'static str;
}

/// The variant of `V` named `name` (trimmed, any case).
///
/// # Errors
/// [`UnknownVariant`] listing the variants there are.
pub fn parse_variant<V: Variant>(name: &str) -> Result<V, UnknownVariant> {
    let wanted = name.trim();
    V::ALL.iter().copied().find(|v| v.name().eq_ignore_ascii_case(wanted)).ok_or_else(|| {
        UnknownVariant { game: V::GAME, variant: wanted.to_owned(), known: V::NAMES }
    })
}

/// Declares a game's variant enum and implements [`Variant`], `Default` (the
/// first), `Display` and `FromStr` for it.
///
/// ```
/// board_core::variants! {
///     /// The variants of my game.
///     pub enum Variant for "mygame" {
///         /// The usual board.
///         Standard = "standard",
///         /// A small board for quick games.
///         Small = "small",
///     }
/// }
/// assert_eq!(Variant::default(), Variant::Standard);
/// assert_eq!("SMALL".parse::<Variant>(), Ok(Variant::Small));
/// assert_eq!(Variant::Small.to_string(), "small");
/// assert!("huge".parse::<Variant>().unwrap_err().to_string().contains("mygame has no variant 'huge'"));
/// ```
#[macro_export]
macro_rules! variants {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident for $game:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $crate::Variant for $name {
            const GAME: &'static str = $game;
            const ALL: &'static [Self] = &[$($name::$variant),+];
            const NAMES: &'static [&'static str] = &[$($text),+];

            fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl ::core::default::Default for $name {
            fn default() -> Self {
                <Self as $crate::Variant>::ALL[0]
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.pad($crate::Variant::name(*self))
            }
        }

        impl ::core::str::FromStr for $name {
            type Err = $crate::UnknownVariant;
            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                $crate::parse_variant(s)
            }
        }
    };
}

/// Implements `Default` (the start of the default variant) and `FromStr`
/// (a position text of the default variant, [`Game::from_text`](crate::Game::from_text))
/// for a game's position type: the two supertraits of [`Game`](crate::Game)
/// that every game implements the same way.
///
/// ```ignore
/// board_core::default_variant!(Position);
/// ```
#[macro_export]
macro_rules! default_variant {
    ($position:ty) => {
        /// The start of the default variant.
        impl ::core::default::Default for $position {
            fn default() -> Self {
                <$position as $crate::Game>::start(::core::default::Default::default())
            }
        }

        /// Reads a position text of the default variant (`Game::from_text`
        /// reads one of another).
        impl ::core::str::FromStr for $position {
            type Err = $crate::PositionError;
            fn from_str(text: &str) -> ::core::result::Result<Self, Self::Err> {
                <$position as $crate::Game>::from_text(text, ::core::default::Default::default())
            }
        }
    };
}
