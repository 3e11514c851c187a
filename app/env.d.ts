/// <reference types="@remix-run/dev" />
