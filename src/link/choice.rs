//! Choices a link key holds (`mech=gaussian`, `neighbour=replace-one`): one macro writes what every
//! such enum needs, so that a new choice is one line.

/// Declares an enum whose values a link key holds, with:
/// - `ALL`, every value in the order a selector lists them;
/// - `key()`, the value's spelling in the link (the first spelling given);
/// - `title()`, its name on the page;
/// - `from_key(s)`, the value any of its spellings names, after trimming, lowering the case and
///   reading `_` and spaces as `-` (the enum's own `parse` adds its error message);
/// - `Display`, which prints the key.
///
/// ```
/// dp_playground::choice! {
///     /// A colour.
///     #[derive(Debug)]
///     pub enum Colour {
///         /// Red.
///         Red = "red" | "r" => "Red",
///         /// Dark blue.
///         DarkBlue = "dark-blue" => "Dark blue",
///     }
/// }
/// assert_eq!(Colour::from_key(" Dark_Blue "), Some(Colour::DarkBlue));
/// assert_eq!(Colour::Red.key(), "red");
/// assert_eq!(Colour::ALL.len(), 2);
/// ```
#[macro_export]
macro_rules! choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident = $key:literal $(| $alias:literal)* => $title:literal
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq)]
        $vis enum $name {
            $(
                $(#[$vmeta])*
                $variant,
            )+
        }

        impl $name {
            /// Every value, in the order a selector lists them.
            pub const ALL: [$name; [$($key),+].len()] = [$($name::$variant),+];

            /// The value's spelling in the link.
            pub fn key(self) -> &'static str {
                match self {
                    $($name::$variant => $key,)+
                }
            }

            /// Its name on the page.
            pub fn title(self) -> &'static str {
                match self {
                    $($name::$variant => $title,)+
                }
            }

            /// The value one of its spellings names (trimmed, any case, `_` and spaces read as `-`).
            pub fn from_key(s: &str) -> Option<Self> {
                let s = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
                match s.as_str() {
                    $($key $(| $alias)* => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.key())
            }
        }
    };
}
