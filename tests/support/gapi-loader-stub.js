/*
 * Offline stand-in for https://apis.google.com/js/api.js, served by the end-to-end harness only (never
 * part of the product). Firebase Auth's popup and redirect flows load Google's loader to open a hidden
 * helper iframe (the emulator's /emulator/auth/iframe) and talk to it through `gapi.iframes` channels.
 * This file implements just that surface: `gapi.load`, `gapi.iframes.getContext().open(...)` returning a
 * channel with `register`, `send`, `ping` and `restyle`, and `getParentIframe()` for the iframe's side.
 * Messages travel with window.postMessage, tagged so that other messages are ignored.
 */
(function installGapiStub() {
  if (window.gapi && window.gapi.isOfflineStub) return;

  var TAG = 'veil-gapi-stub';
  var handlersByType = {};
  // Requests that arrive before their handler is registered wait for it, as with the real loader: the
  // emulator's iframe can post the redirect result before Firebase has registered its 'authEvent' handler.
  var waitingByType = {};
  var callbacksById = {};
  var nextId = 0;

  function createChannel(targetWindow) {
    return {
      register: function (type, handler) {
        handlersByType[type] = handler;
        var waiting = waitingByType[type] || [];
        delete waitingByType[type];
        waiting.forEach(function (answer) {
          answer(handler);
        });
      },
      send: function (type, data, callback) {
        nextId += 1;
        var id = TAG + ':' + nextId + ':' + Math.random().toString(36).slice(2);
        if (callback) callbacksById[id] = callback;
        targetWindow().postMessage({ tag: TAG, kind: 'request', id: id, type: type, data: data }, '*');
      },
      restyle: function () {
        return Promise.resolve();
      },
    };
  }

  window.addEventListener('message', function (event) {
    var message = event.data;
    if (!message || typeof message !== 'object' || message.tag !== TAG) return;
    if (message.kind === 'request') {
      var source = event.source;
      var answer = function (handler) {
        Promise.resolve(handler(message.data)).then(function (reply) {
          source.postMessage({ tag: TAG, kind: 'response', id: message.id, results: reply === undefined ? [] : [reply] }, '*');
        });
      };
      if (handlersByType[message.type]) answer(handlersByType[message.type]);
      else (waitingByType[message.type] = waitingByType[message.type] || []).push(answer);
    } else if (message.kind === 'response' && callbacksById[message.id]) {
      var callback = callbacksById[message.id];
      delete callbacksById[message.id];
      // Like the real loader, a throwing callback is contained: Firebase's web-storage probe calls back
      // and then deliberately throws, which would otherwise surface as an uncaught page error.
      try {
        callback(message.results);
      } catch (error) {
        void error;
      }
    }
  });

  var iframeContext = {
    open: function (options, onReady) {
      var frame = document.createElement('iframe');
      var attributes = options.attributes || {};
      var style = attributes.style || {};
      Object.keys(style).forEach(function (key) {
        frame.style[key] = style[key];
      });
      ['aria-hidden', 'tabindex'].forEach(function (name) {
        if (attributes[name] !== undefined) frame.setAttribute(name, attributes[name]);
      });
      var loaded = new Promise(function (resolve) {
        frame.addEventListener('load', function () {
          resolve();
        });
      });
      frame.src = options.url;
      (options.where || document.body).appendChild(frame);
      var channel = createChannel(function () {
        return frame.contentWindow;
      });
      channel.ping = function (callback) {
        return loaded.then(function () {
          if (callback) callback();
        });
      };
      return Promise.resolve(onReady ? onReady(channel) : channel);
    },
    getParentIframe: function () {
      return createChannel(function () {
        return window.parent;
      });
    },
  };

  window.gapi = {
    isOfflineStub: true,
    load: function (_features, options) {
      var callback = typeof options === 'function' ? options : options && options.callback;
      setTimeout(function () {
        if (callback) callback();
      }, 0);
    },
    iframes: {
      CROSS_ORIGIN_IFRAMES_FILTER: function () {
        return true;
      },
      Iframe: function () {},
      getContext: function () {
        return iframeContext;
      },
    },
  };

  // The real loader calls the function named in its `onload` query parameter once it is ready.
  var scriptSrc = (document.currentScript && document.currentScript.src) || '';
  var onload = /[?&]onload=([^&]+)/.exec(scriptSrc);
  setTimeout(function () {
    if (onload && typeof window[onload[1]] === 'function') window[onload[1]]();
    if (typeof window.gapi_onload === 'function') window.gapi_onload();
  }, 0);
})();
