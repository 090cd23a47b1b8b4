//! The calls a LiveChess client sends, read from their JSON text.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use touchmove_core::output::excerpt::excerpt;

/// What a call asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    /// `eboards`: every board.
    Eboards,
    /// `sources`: the devices the boards are on.
    Sources,
    /// `subscribe` to the `eboardevent` feed `feed` of board `serialnr`.
    Subscribe {
        /// The feed's id, chosen by the client.
        feed: i64,
        /// The board's serial number (touchmove: its name).
        serialnr: String,
    },
    /// `unsubscribe` (or the method of that name): feed `feed` ends.
    Unsubscribe {
        /// The feed's id.
        feed: i64,
    },
    /// The method `setup` on feed `feed`: a new game from `fen` on its board.
    Setup {
        /// The feed's id.
        feed: i64,
        /// The position, as FEN (or only its piece placement).
        fen: String,
    },
    /// The method `flip` on feed `feed`: its board stands turned round (`Some(true)`), the
    /// right way round (`Some(false)`), or the other way round from now (`None`).
    Flip {
        /// The feed's id.
        feed: i64,
        /// How the board stands, when the call says.
        flipped: Option<bool>,
    },
}

/// A call's id as the client gave it, a number or a string of at most [`ID_CHARS`] characters
/// (DGT LiveChess takes both): its answer repeats it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum CallId {
    /// A number.
    Number(i64),
    /// A string.
    Text(String),
}

/// The longest string id taken (it is repeated in the answer).
pub const ID_CHARS: usize = 64;

impl<'de> Deserialize<'de> for CallId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<CallId, D::Error> {
        deserializer.deserialize_any(CallIdVisitor)
    }
}

/// Reads a [`CallId`]: a whole number that fits an `i64`, or a short string.
struct CallIdVisitor;

impl serde::de::Visitor<'_> for CallIdVisitor {
    type Value = CallId;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            formatter,
            "a whole number or a string of at most {ID_CHARS} characters"
        )
    }

    fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<CallId, E> {
        Ok(CallId::Number(n))
    }

    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<CallId, E> {
        i64::try_from(n)
            .map(CallId::Number)
            .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(n), &self))
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<CallId, E> {
        if text.chars().count() > ID_CHARS {
            return Err(E::invalid_value(serde::de::Unexpected::Str(text), &self));
        }
        Ok(CallId::Text(text.to_owned()))
    }
}

impl From<i64> for CallId {
    fn from(id: i64) -> CallId {
        CallId::Number(id)
    }
}

/// One call: its id and what it asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The call's id, repeated in its answer.
    pub id: CallId,
    /// What it asks.
    pub call: Call,
}

/// Why a call cannot be answered (answered with an `error` response).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// The text is no JSON object of a call. Its message quotes at most
    /// [`EXCERPT_CHARS`](touchmove_core::output::excerpt::EXCERPT_CHARS) characters of what
    /// serde_json says (which may quote the text).
    #[error("not a call: {}", excerpt(&.source.to_string()))]
    NotACall {
        /// The call's id, if it could be read.
        id: Option<CallId>,
        /// What was wrong.
        source: JsonFault,
    },
    /// A call of a name touchmove does not answer.
    #[error("unknown call `{name}`")]
    UnknownCall {
        /// The call's id.
        id: CallId,
        /// The name.
        name: String,
    },
    /// A subscription to a feed other than `eboardevent`.
    #[error("unknown feed `{feed}`: only eboardevent is served")]
    UnknownFeed {
        /// The call's id.
        id: CallId,
        /// The feed asked for.
        feed: String,
    },
    /// A method touchmove does not answer.
    #[error("unknown method `{method}`")]
    UnknownMethod {
        /// The call's id.
        id: CallId,
        /// The method.
        method: String,
    },
    /// A call without a parameter it needs.
    #[error("`{call}` needs {what}")]
    Missing {
        /// The call's id.
        id: CallId,
        /// The call or method.
        call: &'static str,
        /// What it lacks.
        what: &'static str,
    },
}

impl CallError {
    /// The id of the call refused, if known.
    pub fn id(&self) -> Option<CallId> {
        match self {
            CallError::NotACall { id, .. } => id.clone(),
            CallError::UnknownCall { id, .. }
            | CallError::UnknownFeed { id, .. }
            | CallError::UnknownMethod { id, .. }
            | CallError::Missing { id, .. } => Some(id.clone()),
        }
    }
}

/// Why serde_json could not read a call; compared by the kind of fault and where it is.
#[derive(Debug, Clone, thiserror::Error)]
#[error(transparent)]
pub struct JsonFault(Arc<serde_json::Error>);

impl PartialEq for JsonFault {
    fn eq(&self, other: &JsonFault) -> bool {
        let (a, b) = (&self.0, &other.0);
        (a.classify(), a.line(), a.column()) == (b.classify(), b.line(), b.column())
    }
}

impl Eq for JsonFault {}

/// A call's envelope.
#[derive(Deserialize)]
struct Envelope {
    call: String,
    id: CallId,
    #[serde(default)]
    param: Value,
}

/// The parameter of `subscribe`, `call` and `unsubscribe`: an id, and the feed's or method's
/// own parameter.
#[derive(Deserialize)]
struct Inner {
    id: Option<i64>,
    feed: Option<String>,
    method: Option<String>,
    #[serde(default)]
    param: Value,
}

/// Reads one call from its text.
///
/// ```
/// use touchmove_spectators::livechess::{Call, CallError, CallId, parse_call};
///
/// let listed = parse_call(r#"{"id":1,"call":"eboards"}"#)?;
/// assert_eq!((listed.id, listed.call), (CallId::Number(1), Call::Eboards));
/// // A feed of board-1's events, as lichess.org's e-board page asks for it.
/// let text = r#"{"id":"a7","call":"subscribe","#.to_owned()
///     + r#""param":{"feed":"eboardevent","id":3,"param":{"serialnr":"board-1"}}}"#;
/// let subscribed = parse_call(&text)?;
/// assert_eq!(subscribed.id, CallId::Text("a7".to_owned()));
/// assert_eq!(subscribed.call, Call::Subscribe { feed: 3, serialnr: "board-1".to_owned() });
/// // An unknown call is refused, its id kept for the answer.
/// let unknown = parse_call(r#"{"id":2,"call":"format_c"}"#);
/// assert!(matches!(unknown, Err(CallError::UnknownCall { id: CallId::Number(2), .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_call(text: &str) -> Result<Request, CallError> {
    let envelope: Envelope = serde_json::from_str(text).map_err(|error| CallError::NotACall {
        id: serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|value| serde_json::from_value(value.get("id")?.clone()).ok()),
        source: JsonFault(Arc::new(error)),
    })?;
    let id = envelope.id;
    let call = match envelope.call.as_str() {
        "eboards" => Call::Eboards,
        "sources" => Call::Sources,
        "subscribe" => subscribe(&id, envelope.param)?,
        "unsubscribe" => Call::Unsubscribe {
            feed: inner(&id, envelope.param, "unsubscribe")?
                .id
                .ok_or(missing(&id, "unsubscribe", "the feed's id"))?,
        },
        "call" => method(&id, envelope.param)?,
        _ => {
            return Err(CallError::UnknownCall {
                id,
                name: excerpt(&envelope.call),
            });
        }
    };
    Ok(Request { id, call })
}

fn missing(id: &CallId, call: &'static str, what: &'static str) -> CallError {
    CallError::Missing {
        id: id.clone(),
        call,
        what,
    }
}

fn inner(id: &CallId, param: Value, call: &'static str) -> Result<Inner, CallError> {
    serde_json::from_value(param).map_err(|_| missing(id, call, "a parameter object"))
}

fn subscribe(id: &CallId, param: Value) -> Result<Call, CallError> {
    let inner = inner(id, param, "subscribe")?;
    let feed = inner.feed.unwrap_or_default();
    if feed != "eboardevent" {
        return Err(CallError::UnknownFeed {
            id: id.clone(),
            feed: excerpt(&feed),
        });
    }
    // A serial number as a string, or as a number (DGT LiveChess takes both).
    let serialnr = match inner.param.get("serialnr") {
        Some(Value::String(serialnr)) => serialnr.clone(),
        Some(Value::Number(serialnr)) => serialnr.to_string(),
        _ => return Err(missing(id, "subscribe", "the board's serialnr")),
    };
    Ok(Call::Subscribe {
        feed: inner.id.ok_or(missing(id, "subscribe", "the feed's id"))?,
        serialnr,
    })
}

fn method(id: &CallId, param: Value) -> Result<Call, CallError> {
    let inner = inner(id, param, "call")?;
    let feed = inner.id.ok_or(missing(id, "call", "the feed's id"))?;
    let method = inner.method.unwrap_or_default();
    match method.as_str() {
        "setup" => {
            let fen = inner
                .param
                .get("fen")
                .and_then(Value::as_str)
                .ok_or(missing(id, "setup", "a fen"))?;
            Ok(Call::Setup {
                feed,
                fen: fen.to_owned(),
            })
        }
        "flip" => Ok(Call::Flip {
            feed,
            flipped: inner.param.get("flip").and_then(Value::as_bool),
        }),
        "unsubscribe" => Ok(Call::Unsubscribe { feed }),
        _ => Err(CallError::UnknownMethod {
            id: id.clone(),
            method: excerpt(&method),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_serial_number_may_be_a_number() {
        let call = r#"{"call":"subscribe","id":2,"param":{"feed":"eboardevent","id":1,"param":{"serialnr":23946}}}"#;
        assert_eq!(
            parse_call(call).map(|request| request.call),
            Ok(Call::Subscribe {
                feed: 1,
                serialnr: "23946".to_owned(),
            })
        );
    }

    #[test]
    fn a_text_that_is_no_call_is_refused_quoting_little_of_it() {
        let long = "x".repeat(100_000);
        let refused = parse_call(&format!(r#"{{"call":"eboards","id":"{long}"}}"#));
        let Err(error) = refused else {
            panic!("{refused:?}");
        };
        assert!(matches!(error, CallError::NotACall { id: None, .. }));
        let message = error.to_string();
        assert!(
            message.starts_with("not a call: invalid value: string"),
            "{message}"
        );
        assert!(message.chars().count() < 100, "{message}");
        assert!(
            std::error::Error::source(&error).is_some(),
            "the cause is kept"
        );
    }

    #[test]
    fn the_calls_of_a_client_are_read() {
        let eboards = parse_call(r#"{"call":"eboards","id":1}"#);
        assert_eq!(
            eboards,
            Ok(Request {
                id: CallId::Number(1),
                call: Call::Eboards
            })
        );
        assert_eq!(
            parse_call(r#"{"call":"sources","id":2}"#).map(|request| request.call),
            Ok(Call::Sources)
        );
        // A string id, as DGT LiveChess takes it, is answered with the same string.
        let named = parse_call(r#"{"call":"eboards","id":"boards-1"}"#);
        assert_eq!(
            named.map(|request| request.id),
            Ok(CallId::Text("boards-1".to_owned()))
        );
        let subscribe = r#"{"call":"subscribe","id":42,"param":{"feed":"eboardevent","id":7,
            "param":{"serialnr":"7425"}}}"#;
        assert_eq!(
            parse_call(subscribe).map(|request| request.call),
            Ok(Call::Subscribe {
                feed: 7,
                serialnr: "7425".to_owned()
            })
        );
        let setup = r#"{"id":2,"call":"call","param":{"id":7,"method":"setup",
            "param":{"fen":"8/8/8/8/8/8/8/K6k w - - 0 1"}}}"#;
        assert_eq!(
            parse_call(setup).map(|request| request.call),
            Ok(Call::Setup {
                feed: 7,
                fen: "8/8/8/8/8/8/8/K6k w - - 0 1".to_owned()
            })
        );
        let flip =
            r#"{"id":4,"call":"call","param":{"id":7,"method":"flip","param":{"flip":true}}}"#;
        assert_eq!(
            parse_call(flip).map(|request| request.call),
            Ok(Call::Flip {
                feed: 7,
                flipped: Some(true)
            })
        );
        let unsubscribe = r#"{"id":5,"call":"unsubscribe","param":{"id":7}}"#;
        assert_eq!(
            parse_call(unsubscribe).map(|request| request.call),
            Ok(Call::Unsubscribe { feed: 7 })
        );
    }

    #[test]
    fn what_cannot_be_answered_says_why_with_its_id() {
        let cases = [
            ("not json", None, "not a call"),
            (
                r#"{"call":"shutdown","id":3}"#,
                Some(3),
                "unknown call `shutdown`",
            ),
            (
                r#"{"call":"subscribe","id":4,"param":{"feed":"sourceevent","id":1}}"#,
                Some(4),
                "unknown feed `sourceevent`",
            ),
            (
                r#"{"call":"subscribe","id":5,"param":{"feed":"eboardevent","id":1,"param":{}}}"#,
                Some(5),
                "`subscribe` needs the board's serialnr",
            ),
            (
                r#"{"call":"call","id":6,"param":{"id":1,"method":"reset"}}"#,
                Some(6),
                "unknown method `reset`",
            ),
            (
                r#"{"call":"call","id":7,"param":{"id":1,"method":"setup","param":{}}}"#,
                Some(7),
                "`setup` needs a fen",
            ),
            (r#"{"call":"eboards","id":[1]}"#, None, "not a call"),
        ];
        for (text, id, message) in cases {
            let error = parse_call(text).err();
            let id = id.map(CallId::Number);
            assert_eq!(error.as_ref().and_then(CallError::id), id, "{text}");
            let said = error.map(|error| error.to_string()).unwrap_or_default();
            assert!(said.starts_with(message), "{text}: {said}");
        }
    }
}
