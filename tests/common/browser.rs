//! Pages in a real headless Chromium (Debian's `chromium` and `chromium-driver`, installed by
//! `.ci/run`), driven over WebDriver with fantoccini: what a person would see, read from the
//! rendered page once its scripts have run.

use std::net::TcpListener;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;

/// A chromedriver process and a headless Chromium session on it; both end when dropped.
pub struct Browser {
    driver: Child,
    runtime: tokio::runtime::Runtime,
    client: Option<Client>,
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            let _ = self.runtime.block_on(client.close());
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

impl Browser {
    /// Starts chromedriver on a free port and opens a headless window of `width` × `height`.
    pub fn start(width: u32, height: u32) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        super::tools::require_chromium();
        let driver = super::child::command("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver runs");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".to_owned(),
            serde_json::json!({
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    format!("--window-size={width},{height}"),
                ]
            }),
        );
        let url = format!("http://127.0.0.1:{port}");
        let client = runtime.block_on(async {
            // chromedriver takes a moment to listen.
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                let attempt = ClientBuilder::new(HttpConnector::new())
                    .capabilities(capabilities.clone())
                    .connect(&url)
                    .await;
                match attempt {
                    Ok(client) => return client,
                    Err(error) if Instant::now() > deadline => {
                        panic!("no WebDriver session: {error}")
                    }
                    Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                }
            }
        });
        Browser {
            driver,
            runtime,
            client: Some(client),
        }
    }

    /// A browser whose page area (`window.innerWidth` × `innerHeight`) is `width` × `height`,
    /// as a screen of that size shows a page: the window made larger by what its frame takes.
    pub fn with_viewport(width: u32, height: u32) -> Browser {
        let browser = Browser::start(width, height);
        let inner = browser.eval("return [window.innerWidth, window.innerHeight]");
        let side = |i: usize| u32::try_from(inner[i].as_u64().unwrap_or(0)).unwrap_or(0);
        let (outer_width, outer_height) = (
            width + width.saturating_sub(side(0)),
            height + height.saturating_sub(side(1)),
        );
        browser
            .runtime
            .block_on(browser.client().set_window_size(outer_width, outer_height))
            .expect("the window resized");
        browser
    }

    fn client(&self) -> &Client {
        self.client.as_ref().expect("an open session")
    }

    /// Opens `url`.
    pub fn open(&self, url: &str) {
        self.runtime
            .block_on(self.client().goto(url))
            .unwrap_or_else(|error| panic!("{url}: {error}"));
    }

    /// The visible text of the first element `css` selects, once `ready` accepts it (the page
    /// updates itself), or what it was when `within` ran out.
    pub fn text_when(&self, css: &str, within: Duration, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + within;
        self.runtime.block_on(async {
            let mut last = String::new();
            while Instant::now() < deadline {
                if let Ok(element) = self.client().find(Locator::Css(css)).await
                    && let Ok(text) = element.text().await
                {
                    if ready(&text) {
                        return text;
                    }
                    last = text;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            last
        })
    }

    /// Clicks the first element `css` selects, as a person would (it must be shown).
    pub fn click(&self, css: &str) {
        self.runtime
            .block_on(async {
                let element = self.client().find(Locator::Css(css)).await?;
                element.click().await
            })
            .unwrap_or_else(|error| panic!("cannot click {css}: {error}"));
    }

    /// Types `text` into the first element `css` selects (an input), as a person would.
    pub fn type_into(&self, css: &str, text: &str) {
        self.runtime
            .block_on(async {
                let element = self.client().find(Locator::Css(css)).await?;
                element.clear().await?;
                element.send_keys(text).await
            })
            .unwrap_or_else(|error| panic!("cannot type into {css}: {error}"));
    }

    /// What the script `js` returns in the page (its body is a function's: `return ...`).
    pub fn eval(&self, js: &str) -> serde_json::Value {
        self.runtime
            .block_on(self.client().execute(js, Vec::new()))
            .unwrap_or_else(|error| panic!("the script failed: {error}"))
    }

    /// Saves what the window shows as a PNG at `path`.
    pub fn screenshot(&self, path: &std::path::Path) {
        let png = self
            .runtime
            .block_on(self.client().screenshot())
            .expect("a screenshot");
        std::fs::write(path, png).expect("the screenshot is written");
    }
}
