/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_PRODUCT_NAME?: string;
  readonly VITE_OPERATOR_NAME?: string;
  readonly VITE_SUPPORT_EMAIL?: string;
  readonly VITE_LOG_RETENTION_DAYS?: string;
  readonly VITE_TRACE_RETENTION_DAYS?: string;
  readonly VITE_TRACING_PROCESSOR?: string;
  readonly VITE_DOWNLOAD_URL_MACOS?: string;
  readonly VITE_DOWNLOAD_URL_WINDOWS?: string;
  readonly VITE_DOWNLOAD_URL_IOS?: string;
  readonly VITE_DOWNLOAD_URL_ANDROID?: string;
  readonly VITE_LEARN_MORE_URL?: string;
  readonly VITE_DEEP_LINK_SCHEME?: string;
  readonly VITE_INSPECT?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
