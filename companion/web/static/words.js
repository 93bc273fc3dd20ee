// The page's words (companion/web/words.py writes WORDS and PLURAL above this): t(sentence) is
// the sentence in the page's language, nt(singular, plural, n) the form its plural rule picks,
// fill(text, {name: value}) puts the values in. The language: the page's switch (kept), else
// the browser's, else the server's guess from Accept-Language.
var GUESSED = /*PAGE_LANG*/"en";
var LANG = (function () {
  var kept = null;
  try { kept = localStorage.getItem(WORDS.kept); } catch (e) {}
  if (kept && WORDS.languages[kept]) return kept;
  var wanted = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""]);
  for (var i = 0; i < wanted.length; i++) {
    var code = String(wanted[i] || "").toLowerCase().split(/[-_]/)[0];
    if (WORDS.languages[code]) return code;
  }
  return WORDS.languages[GUESSED] ? GUESSED : "en";
})();
document.documentElement.lang = LANG;
function t(message) {
  var own = (WORDS.words[LANG] || {})[message];
  return typeof own === "string" && own ? own : message;
}
function nt(singular, plural, n) {
  var own = (WORDS.words[LANG] || {})[singular];
  if (own && typeof own === "object") {
    var form = own[PLURAL[LANG](n)];
    if (form) return form;
  }
  return n === 1 ? singular : plural;
}
function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, function (whole, name) {
    return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
  });
}
// Words the server sent as a message and its values ({words, values}), in the page's language;
// `plain` (the server's English) when it sent none.
function said(sent, plain) {
  if (!sent || typeof sent.words !== "string") return plain;
  var values = {};
  Object.keys(sent.values || {}).forEach(function (k) {
    var v = sent.values[k];
    values[k] = v && typeof v === "object" ? said(v, "") : v;  // a reason within a reason
  });
  return fill(t(sent.words), values);
}
// The switch: a small list of the languages, each by its own name; `changed(code)` redraws the page.
function languageSwitch(label, changed) {
  var box = document.createElement("select");
  box.id = "lang";
  box.setAttribute("aria-label", label);
  Object.keys(WORDS.languages).forEach(function (code) {
    var o = document.createElement("option");
    o.value = code;
    o.textContent = WORDS.languages[code];
    o.lang = code;
    if (code === LANG) o.selected = true;
    box.appendChild(o);
  });
  box.onchange = function () {
    LANG = box.value;
    document.documentElement.lang = LANG;
    try { localStorage.setItem(WORDS.kept, LANG); } catch (e) {}
    changed(LANG);
  };
  return box;
}
