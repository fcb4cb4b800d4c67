//! The URL query as the app's state: read through the router into a memo, written with `replace` so
//! that moving a slider does not add a history entry per step.

use dp_playground::link::embed::ViewOptions;
use dp_playground::link::query::Query;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate};
use leptos_router::NavigateOptions;

/// Writes a URL into the address bar (the router's navigate, with replace).
type Writer = Box<dyn Fn(&str)>;

/// The current query (reactive) and the way to change it. Provided as context by the app shell.
#[derive(Clone, Copy)]
pub struct UrlState {
    /// The decoded query string.
    pub query: Memo<Query>,
    /// How the view is shown (embedded, which controls, read-only).
    pub options: Memo<ViewOptions>,
    pathname: Memo<String>,
    write: StoredValue<Writer, LocalStorage>,
}

impl UrlState {
    /// Reads the router's location. Call once, inside the `<Router>`.
    pub fn from_router() -> Self {
        let location = use_location();
        let search = location.search;
        let query = Memo::new(move |_| Query::parse(&search.get()));
        let navigate = use_navigate();
        let write: Box<dyn Fn(&str)> = Box::new(move |url: &str| {
            navigate(
                url,
                NavigateOptions {
                    resolve: false,
                    replace: true,
                    scroll: false,
                    ..Default::default()
                },
            )
        });
        UrlState {
            query,
            options: Memo::new(move |_| ViewOptions::from_query(&query.get())),
            pathname: location.pathname,
            write: StoredValue::new_local(write),
        }
    }

    /// Changes the query in place (replacing the history entry): `edit` gets the current query.
    /// A locked view (`lock=1`) ignores every change.
    pub fn update(&self, edit: impl FnOnce(&mut Query)) {
        if self.options.with_untracked(|o| o.locked) {
            return;
        }
        let mut query = self.query.get_untracked();
        edit(&mut query);
        let url = self.href_for(&query, self.pathname.get_untracked());
        self.write.with_value(|write| write(&url));
    }

    /// Sets one key.
    pub fn set(&self, key: &str, value: impl Into<String>) {
        let value = value.into();
        self.update(|q| q.set(key, value));
    }

    /// A link to the current path with the current query changed by `edit` (reactive).
    pub fn href_with(&self, edit: impl FnOnce(&mut Query)) -> String {
        let mut query = self.query.get();
        edit(&mut query);
        self.href_for(&query, self.pathname.get())
    }

    /// What a control shows for `key`: the link's raw text (a refused value stays visible beside its
    /// message), or `in_use()` when the link has none.
    pub fn raw_or(
        &self,
        key: &'static str,
        in_use: impl Fn() -> String + Send + Sync + 'static,
    ) -> Signal<String> {
        let query = self.query;
        Signal::derive(move || {
            query
                .with(|q| q.get(key).map(str::to_owned))
                .unwrap_or_else(&in_use)
        })
    }

    /// The page's address without its query (for share links and snippets).
    pub fn page_url(&self) -> String {
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        format!("{origin}{}", self.pathname.get())
    }

    fn href_for(&self, query: &Query, pathname: String) -> String {
        format!("{pathname}?{}", query.to_query_string())
    }
}

/// The shell's [`UrlState`].
pub fn use_url() -> UrlState {
    use_context::<UrlState>().unwrap_or_else(UrlState::from_router)
}
