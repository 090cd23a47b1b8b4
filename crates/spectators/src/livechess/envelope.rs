//! The envelopes of what touchmove sends a LiveChess client.

use serde::Serialize;

use super::call::CallId;
use serde_json::{Value, json};

/// The answer to call `id`: `param`, at `time` (ms since the Unix epoch).
pub fn call_response(id: &CallId, param: &impl Serialize, time: u64) -> String {
    let param = serde_json::to_value(param).unwrap_or(Value::Null);
    json!({"response": "call", "id": id, "param": param, "time": time}).to_string()
}

/// A message of feed `feed`: `param`, at `time`.
pub fn feed_message(feed: i64, param: &impl Serialize, time: u64) -> String {
    let param = serde_json::to_value(param).unwrap_or(Value::Null);
    json!({"response": "feed", "id": feed, "param": param, "time": time}).to_string()
}

/// The last message of feed `feed`, subscribed as `serialnr`: that board is gone (another
/// board answers on its port): `{"serialnr": S, "state": "REMOVED", "message": ...}`, no
/// board. Nothing follows on the feed.
pub fn feed_gone(feed: i64, serialnr: &str, message: &str, time: u64) -> String {
    let param = json!({"serialnr": serialnr, "state": "REMOVED", "message": message});
    json!({"response": "feed", "id": feed, "param": param, "time": time}).to_string()
}

/// Call `id` (`null` when it could not be read) cannot be answered: `message` says why.
pub fn error_response(id: Option<&CallId>, message: &str, time: u64) -> String {
    json!({"response": "error", "id": id, "param": {"message": message}, "time": time}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelopes_are_livechess_s() {
        let answer: Value =
            serde_json::from_str(&call_response(&3.into(), &Value::Null, 1700)).unwrap_or_default();
        assert_eq!(
            answer,
            json!({"response": "call", "id": 3, "param": null, "time": 1700})
        );
        let named = CallId::Text("a1".to_owned());
        let answer: Value =
            serde_json::from_str(&call_response(&named, &Value::Null, 1)).unwrap_or_default();
        assert_eq!(answer["id"], "a1");
        let error: Value = serde_json::from_str(&error_response(None, "no", 5)).unwrap_or_default();
        assert_eq!(
            error,
            json!({"response": "error", "id": null, "param": {"message": "no"}, "time": 5})
        );
        let feed: Value =
            serde_json::from_str(&feed_message(7, &json!({"san": []}), 9)).unwrap_or_default();
        assert_eq!(feed["response"], "feed");
        assert_eq!(feed["id"], 7);
    }
}
