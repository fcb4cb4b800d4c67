//! The URL query as the app's state: read from the window's location into a memo, written with
//! `replace` so that moving a slider does not add a history entry per step; discrete changes (a preset,
//! a select, a list edit, a button) are `commit`ted as a new entry, so Back undoes them (the location
//! follows Back, and every control reads the query).

use dp_playground::link::embed::ViewOptions;
use dp_playground::link::href::same_page_href;
use dp_playground::link::query::Query;
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The current query (reactive) and the way to change it. Provided as context by the app shell.
///
/// The page keeps its own location and history writes rather than leptos_router's: the router's
/// `navigate` parses the href, then pushes `pathname + "?" + search`, which for a page served at a
/// path starting with `//` is a protocol-relative URL (a `SecurityError`, and an `unwrap` panic in the
/// router), and its link-click handler does the same. Every href here comes from
/// [`same_page_href`], which stays on the page's origin and path.
#[derive(Clone, Copy)]
pub struct UrlState {
    /// The decoded query string.
    pub query: Memo<Query>,
    /// How the view is shown (embedded, which controls, read-only).
    pub options: Memo<ViewOptions>,
    pathname: Memo<String>,
    location: RwSignal<(String, String)>,
}

/// The window's (pathname, search), or empty strings without a window.
fn window_location() -> (String, String) {
    web_sys::window()
        .map(|w| w.location())
        .map(|l| {
            (
                l.pathname().unwrap_or_default(),
                l.search().unwrap_or_default(),
            )
        })
        .unwrap_or_default()
}

impl UrlState {
    /// Reads the window's location, follows Back and Forward, and takes over clicks on links to this
    /// page (a new query, no reload). Call once, in the app shell.
    pub fn from_window() -> Self {
        let location = RwSignal::new(window_location());
        let popstate =
            window_event_listener(ev::popstate, move |_| location.set(window_location()));
        let click = window_event_listener(ev::click, move |e| {
            if let Some(href) = same_page_link(&e) {
                e.prevent_default();
                push(&href, false);
                location.set(window_location());
                if let Some(w) = web_sys::window() {
                    w.scroll_to_with_x_and_y(0.0, 0.0);
                }
            }
        });
        on_cleanup(move || {
            popstate.remove();
            click.remove();
        });
        let query = Memo::new(move |_| location.with(|l| Query::parse(&l.1)));
        UrlState {
            query,
            options: Memo::new(move |_| ViewOptions::from_query(&query.get())),
            pathname: Memo::new(move |_| location.with(|l| l.0.clone())),
            location,
        }
    }

    /// Changes the query in place (replacing the history entry): `edit` gets the current query.
    /// For continuous input (sliders, typing). A locked view (`lock=1`) ignores every change.
    pub fn update(&self, edit: impl FnOnce(&mut Query)) {
        self.write_query(edit, true);
    }

    /// Changes the query as a new history entry, so Back undoes it: for discrete changes (presets,
    /// selects, list edits, buttons). A locked view ignores it too.
    pub fn commit(&self, edit: impl FnOnce(&mut Query)) {
        self.write_query(edit, false);
    }

    /// Sets one key in place ([`UrlState::update`]).
    pub fn set(&self, key: &str, value: impl Into<String>) {
        let value = value.into();
        self.update(|q| q.set(key, value));
    }

    /// Sets one key as a new history entry ([`UrlState::commit`]).
    pub fn commit_set(&self, key: &str, value: impl Into<String>) {
        let value = value.into();
        self.commit(|q| q.set(key, value));
    }

    fn write_query(&self, edit: impl FnOnce(&mut Query), replace: bool) {
        if self.options.with_untracked(|o| o.locked) {
            return;
        }
        let before = self.query.get_untracked();
        let mut query = before.clone();
        edit(&mut query);
        // No entry for a change that changes nothing (Back would seem to do nothing).
        if !replace && query == before {
            return;
        }
        let url = self.href_for(&query, self.pathname.get_untracked());
        push(&url, replace);
        self.location.set(window_location());
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

    /// The `target` of a link to another lab: a new tab inside an embed, so that a course page's
    /// iframe never fills with the whole site (nav bar and all); the page itself otherwise.
    pub fn other_lab_target(
        &self,
    ) -> impl Fn() -> Option<&'static str> + Copy + Send + Sync + 'static {
        let options = self.options;
        move || options.with(|o| o.embed).then_some("_blank")
    }

    /// The page's address without its query (for share links and snippets).
    pub fn page_url(&self) -> String {
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        format!("{origin}{}", self.pathname.get())
    }

    /// A link to this page with the query string `query` (another lab's link, a scenario).
    pub fn href_to(&self, query: &str) -> String {
        same_page_href(&self.pathname.get(), query)
    }

    fn href_for(&self, query: &Query, pathname: String) -> String {
        same_page_href(&pathname, &query.to_query_string())
    }
}

/// Writes `href` (from [`same_page_href`]) into the address bar: replacing the entry, or adding one.
fn push(href: &str, replace: bool) {
    let Some(history) = web_sys::window().and_then(|w| w.history().ok()) else {
        return;
    };
    let state = wasm_bindgen::JsValue::NULL;
    let written = if replace {
        history.replace_state_with_url(&state, "", Some(href))
    } else {
        history.push_state_with_url(&state, "", Some(href))
    };
    if let Err(e) = written {
        leptos::logging::warn!("the address bar refused {href}: {e:?}");
    }
}

/// The address of a plain click on a link to this very page (same origin and path, no fragment, no
/// target, not a download or `rel=external`), which the page follows itself; `None` for every other
/// click, which the browser handles.
fn same_page_link(e: &web_sys::MouseEvent) -> Option<String> {
    if e.default_prevented()
        || e.button() != 0
        || e.meta_key()
        || e.alt_key()
        || e.ctrl_key()
        || e.shift_key()
    {
        return None;
    }
    let target: web_sys::Element = e.target()?.dyn_into().ok()?;
    let a: web_sys::HtmlAnchorElement = target.closest("a[href]").ok()??.dyn_into().ok()?;
    let rel = a.rel();
    if !a.target().is_empty()
        || a.has_attribute("download")
        || rel.split_ascii_whitespace().any(|r| r == "external")
    {
        return None;
    }
    let href = a.href();
    let url = web_sys::Url::new(&href).ok()?;
    let here = web_sys::window()?.location();
    let same = url.origin() == here.origin().ok()?
        && url.pathname() == here.pathname().ok()?
        && url.hash().is_empty();
    same.then_some(href)
}

/// The shell's [`UrlState`].
pub fn use_url() -> UrlState {
    use_context::<UrlState>().unwrap_or_else(UrlState::from_window)
}
