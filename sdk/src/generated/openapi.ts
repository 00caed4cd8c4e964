// Generated from docs/openapi.json by `npm run sdk:types`; do not edit.
export interface paths {
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request an access token (OAuth 2.0 client-credentials grant)
         * @description Authenticate with client_id and client_secret in the body, or with HTTP Basic (both parts form-urlencoded), not both. Too many failed attempts for one client_id from one address (or, far more, from all addresses together) are refused with 429 before the secret is checked. A scope parameter asks for a subset of the role's scopes; the token then carries exactly that subset.
         */
        post: operations["requestToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization server metadata (RFC 8414) */
        get: operations["getAuthorizationServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public keys that sign access tokens (JWKS)
         * @description A key is published before it signs and stays published until the last token it signed has expired.
         */
        get: operations["getSigningKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the server is up
         * @description Answers 200 while the server takes requests; while it is stopping, 503 with Retry-After. Needs no token; for load balancers and monitors.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign a person in
         * @description Checks the email and password and sets the session cookie. Failed attempts are throttled per 15 minutes: 10 per account from one address, 50 per address for all accounts, and 100 per account from every address together; beyond that the answer is 429 with Retry-After, even for the right password. The answer does not say whether the email exists.
         */
        post: operations["signIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the session
         * @description Ends the session on the server (its tokens stop working within seconds) and clears the cookie. Succeeds without a session too.
         */
        post: operations["signOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who is signed in
         * @description 401 when nobody is (or the session ended).
         */
        get: operations["getSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An access token for the signed-in person
         * @description A bearer token for the /v1/api operations, valid for minutes, with the scopes of the user's role. It stops working when the session ends.
         */
        post: operations["getSessionToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the signed-in person's password
         * @description At least 12 characters, not one of the commonly used passwords. Every other session of the person ends; this one goes on. A wrong current password counts as a failed sign-in of the account (the same throttle; 429 with Retry-After beyond it).
         */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/invitations/{secret}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What an invitation link is for
         * @description The email and role it invites; 404 for an unknown link, 409 for a used or expired one (the message says which).
         */
        get: operations["getInvitation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/invitations/{secret}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation
         * @description Creates the user with the password chosen (at least 12 characters, not a common one) and signs them in.
         */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * List the transactions of a dataset, with their matches and reconciliation status
         * @description Returns one page as a bare JSON array, in (timestamp, id) order unless sort asks for another. X-Has-More says whether more follow; X-Next-Cursor, sent back as cursor with the same query, continues at constant cost. Paging by offset stays cheap however deep it goes.
         */
        post: operations["queryTransactions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/transactions/{transactionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one transaction
         * @description The transaction record with its incoming and outgoing matches; `columns` adds fields to it as the transactions query does (e.g. ?columns=amount,currency,counterparty).
         */
        get: operations["getTransaction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set or clear a transaction's status
         * @description "informative" or "out of scope" can be set only on a transaction without matches (409 otherwise); "none" clears the set status and returns the transaction to the status derived from its matches. Every change is recorded in the audit trail with the note.
         */
        patch: operations["setTransactionStatus"];
        trace?: never;
    };
    "/v1/api/{orgId}/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sources with their datasets
         * @description Every source of the organization with its datasets, their columns and their counts of transactions per reconciliation status. Archived datasets are left out unless includeArchived=true.
         */
        get: operations["listSources"];
        put?: never;
        /** Create a source */
        post: operations["createSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/sources/{sourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Rename a source
         * @description The rename is recorded in the audit trail (source.updated). Answers the source with all its datasets, archived ones included.
         */
        patch: operations["updateSource"];
        trace?: never;
    };
    "/v1/api/{orgId}/sources/{sourceId}/datasets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a dataset in a source
         * @description Every dataset has the standard columns timestamp (date, required in each record), description, type, reference, currency (strings) and amount (money); it may declare more. Column names that collide with the standard columns, with externalId or with a field of the transaction record are refused.
         */
        post: operations["createDataset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/datasets/{datasetId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Rename, archive or restore a dataset, or change its account and currency
         * @description accountId is the bank account whose statements the dataset holds (an IBAN is checked and kept without spaces), currency its ISO 4217 code; a field left out stays as it is, null clears it. A statement import of another account is refused (409) unless it sends allowOtherAccount=true. archived=true hides the dataset from GET /sources (unless includeArchived=true) and keeps its transactions and matches; archived=false restores it. Every change is recorded in the audit trail (dataset.updated, dataset.archived, dataset.restored).
         */
        patch: operations["updateDataset"];
        trace?: never;
    };
    "/v1/api/{orgId}/datasets/{datasetId}/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add transactions to a dataset
         * @description Stores up to 10,000 records, all or nothing: a record with a value that does not fit its column is a 400 naming the record and the column, and nothing is stored. Idempotent on externalId within the dataset: records whose externalId the dataset already holds are skipped and counted in duplicates. Records without externalId are always inserted.
         */
        post: operations["ingestTransactions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/matches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Match transactions
         * @description Creates one match group from the links, all or nothing, processed in order. Each link allocates an amount of the origin to the target: by default what is left of both sides. A transaction that is informative or out of scope cannot be matched (409); an allocation beyond what is left of either side, or a link between different currencies, is a 409 unless "force": true, which is recorded. Statuses of the linked transactions are derived anew.
         */
        post: operations["createMatches"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/matches/{matchId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a match
         * @description Deletes one match; the statuses of both transactions are derived anew. The deletion is recorded in the audit trail with the note. A match of a netted payout group (refunds and fees lowering the deposit) cannot be deleted alone (409): delete its match group.
         */
        delete: operations["deleteMatch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/match-groups/{groupId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a match group
         * @description A match group with its matches; a rule-made group also shows its rule version, run, adjustment and evidence. A payout may have thousands of matches: ask for them a page at a time with limit and cursor.
         */
        get: operations["getMatchGroup"];
        put?: never;
        post?: never;
        /**
         * Delete a match group
         * @description Deletes every match of the group and the group; the statuses of the transactions are derived anew.
         */
        delete: operations["deleteMatchGroup"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List audit events
         * @description Every change, oldest first (newest first with order=newest): matches and reconciliation statuses, rules, suggestions, imports, sources and datasets, API clients and people; who, when, what, the state before and after, the request id and the note. Filter by actor, action, object, transaction and time; page with cursor (the nextCursor of the previous answer); from and to are inclusive epoch milliseconds.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the API clients of the organization
         * @description Active clients, oldest first (at most 500), with the ids and hints of their active secrets. Secrets are never listed.
         */
        get: operations["listClients"];
        put?: never;
        /**
         * Create an API client
         * @description Creates a client with one secret, which this answer shows once. At most 100 active clients per organization.
         */
        post: operations["createClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/clients/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API client
         * @description Its secrets stop working at once and its access tokens within seconds. Revoking an already revoked client succeeds. A client may revoke itself: its own token then stops working too.
         */
        delete: operations["revokeClient"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/clients/{clientId}/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a secret to an API client
         * @description For rotation with overlap: a client holds at most 2 active secrets, which both work; revoke the old one once every caller uses the new one. The secret is shown once.
         */
        post: operations["createClientSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/clients/{clientId}/secrets/{secretId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke one secret of an API client
         * @description The client's other secret keeps working; tokens already issued stay valid until they expire. Revoking an already revoked secret succeeds.
         */
        delete: operations["revokeClientSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/datasets/{datasetId}/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a statement or CSV file into a dataset
         * @description The body is the file (application/octet-stream, text/csv, application/xml, text/plain, application/x-ofx) or multipart/form-data with a "file" part (and an optional "mapping" part with the CSV mapping JSON before it). camt.052/053/054, MT940/942, BAI2, OFX/QFX and CSV; the format is detected when not named. All or nothing: a file that does not follow its format is a 422 naming the line, and nothing of it is stored; the failed import is listed with its error. Idempotent by content: entries the dataset already holds are counted as duplicates. With "Prefer: respond-async" the answer is 202 at once, with the import's URL in Location; GET it to follow the rows read until it completes.
         */
        post: operations["importFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/datasets/{datasetId}/imports/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview how a CSV file would be read
         * @description Takes the file (or its first megabyte), raw or as the "file" part of multipart/form-data, and answers the detected encoding, delimiter, header, decimal separator and date format, a proposed mapping and the first 20 rows read with it. Nothing is stored. With a "mapping" part before the file (a mapping being made), checkedRows are the first 20 rows read with that mapping one by one, each with the entry it becomes or why the import would refuse it; without one, savedMapping is the mapping saved on the dataset for a file of this header (every column it names is in the header), and checkedRows are read with it, else with the proposed mapping. Bytes that are not text in the file's encoding are a 422 naming the line, as an import answers them.
         */
        post: operations["previewImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List imports, newest first
         * @description Completed, running and failed imports (a failed one with its error), of the organization or of one dataset.
         */
        get: operations["listImports"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/imports/{importId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show an import
         * @description Its report; while it runs, status "running" and the rows read so far.
         */
        get: operations["getImport"];
        put?: never;
        post?: never;
        /**
         * Undo an import: remove the transactions it created
         * @description Removes exactly the transactions the import created, all or nothing, in one database transaction; entries it found already stored stay. The import stays in the history with status "undone", the undo is in the audit trail and emits an import.undone event. Refused (409) while the import runs, when it failed or was undone already, and when any of its transactions is matched, listing them: send unmatch=true to dissolve their match groups as well. Importing the same file again afterwards stores its entries again.
         */
        delete: operations["undoImport"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/imports/{importId}/undo-preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show what undoing an import would remove
         * @description How many transactions the import created (an undo removes them), how many of them are matched and which (the first 100), and whether the import can be undone. Nothing is changed.
         */
        get: operations["previewImportUndo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/datasets/{datasetId}/import-mappings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the CSV mappings saved on a dataset */
        get: operations["listImportMappings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/datasets/{datasetId}/import-mappings/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Show a saved CSV mapping */
        get: operations["getImportMapping"];
        /**
         * Save a CSV mapping on a dataset under a name
         * @description The body is the mapping itself. It is checked against the dataset's columns; every problem names the JSON pointer of the field. Creates (201) or replaces (200).
         */
        put: operations["saveImportMapping"];
        post?: never;
        /** Delete a saved CSV mapping */
        delete: operations["deleteImportMapping"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List runs
         * @description Runs, newest first; page with cursor.
         */
        get: operations["listRuns"];
        put?: never;
        /**
         * Start a run
         * @description Queues a run of the rules (all enabled rules by default, in priority order) as a job; answers 202 with the run and its URL in Location. A dry run records what it would do (GET /runs/{id}/results); a commit run does it in one database transaction, so it is carried out whole or not at all.
         */
        post: operations["startRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a run
         * @description Status, progress (examined of total), per-rule counts and timings.
         */
        get: operations["getRun"];
        put?: never;
        post?: never;
        /**
         * Discard a dry run
         * @description Throws away a dry run that was never committed: the run and its results are removed (a dry run changed nothing else), and the audit trail records it (run.discarded). A commit run, or a dry run that was committed, is a 409 (matching.runNotDiscardable): revert it instead. A run that is still queued or running is a 409 at once: cancel it, or try again after it ends.
         */
        delete: operations["discardRun"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/runs/{runId}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List what a run did
         * @description What the run did, or for a dry run would do, by kind, with evidence; page with cursor.
         */
        get: operations["listRunResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/runs/{runId}/commit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Commit a dry run
         * @description Carries out a completed dry run's decisions if none of the transactions involved changed since; 409 naming them otherwise. A run that is still queued or running is a 409 at once: try again after it ends.
         */
        post: operations["commitRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/runs/{runId}/revert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revert a run
         * @description Deletes the match groups the run made that nobody changed since and clears the statuses it set, deriving statuses anew; all in the audit trail. Groups changed since are listed in the run's revert report and left. A run that is still queued or running is a 409 at once: try again after it ends.
         */
        post: operations["revertRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/runs/{runId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a run
         * @description Cancels a queued or running run; a running one stops at its next step and changes nothing.
         */
        post: operations["cancelRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/suggestions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List suggestions
         * @description Suggestions, oldest first, by status (pending, confirmed, rejected, superseded), dataset and rule; page with cursor.
         */
        get: operations["listSuggestions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/suggestions/{suggestionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a suggestion */
        get: operations["getSuggestion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/suggestions/{suggestionId}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm a suggestion
         * @description The chosen option (by index; required when there are several) becomes a match group, method "rule", created by the caller. 409 when a transaction of it was matched or set informative / out of scope since.
         */
        post: operations["confirmSuggestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/suggestions/{suggestionId}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a suggestion
         * @description None of its options is suggested (or matched by a rule) again.
         */
        post: operations["rejectSuggestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/suggestions/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm or reject several suggestions
         * @description All or nothing, in the order given; confirming needs suggestions with a single option.
         */
        post: operations["decideSuggestions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/transactions/{transactionId}/candidates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Rank the counterparts of a transaction
         * @description The best counterparts of one open transaction under the enabled rules whose datasets include its dataset, ranked by score, with evidence.
         */
        get: operations["listCandidates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List rules
         * @description Every rule of the organization that is not deleted, in the order they run: by priority, then creation, then id.
         */
        get: operations["listRules"];
        put?: never;
        /**
         * Create a rule
         * @description Creates version 1 of a rule. Every problem of the body is reported at once (400, each at its JSON pointer): unknown members, paths that a dataset of the side does not have (with the valid ones), conditions that do not fit their field's type, patterns that are not linear-time or that PostgreSQL refuses, datasets that are not the organization's. The answer carries "warnings" when rules of higher priority take everything this rule could match.
         */
        post: operations["createRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/rules/reorder": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reorder rules
         * @description Gives the listed rules the priorities 10, 20, 30... in the order given; rules not listed keep theirs. A reorder makes no new version (a version records what a rule matches, which its rank does not change) and is recorded in the audit trail. Answers with every rule in the new order; an unknown id is a 404.
         */
        post: operations["reorderRules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/rules/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a rule draft
         * @description Checks a draft without storing anything and answers 200 with every problem: errors (what POST /rules or PATCH would refuse) and warnings (rules of higher priority that always shadow it, or rules it shadows). A body that is not a JSON object is a 400. With ruleId, the draft is checked as a PATCH of that rule.
         */
        post: operations["validateRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/rules/{ruleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a rule
         * @description The rule at its current version. A deleted rule is a 404 (its versions stay readable).
         */
        get: operations["getRule"];
        put?: never;
        post?: never;
        /**
         * Delete a rule
         * @description The rule stops running and disappears from GET /rules; its versions are kept, because matches and evidence name them.
         */
        delete: operations["deleteRule"];
        options?: never;
        head?: never;
        /**
         * Change a rule
         * @description A JSON merge patch (RFC 7396) of the rule, checked again as a whole; a change makes a new version (matches keep the version that made them), a patch that changes nothing makes none. "version" is an optional precondition: when the rule is at another version, nothing changes and the answer is 409.
         */
        patch: operations["updateRule"];
        trace?: never;
    };
    "/v1/api/{orgId}/rules/{ruleId}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the versions of a rule
         * @description Every version of the rule with its body, newest first; also for a deleted rule, so that the rule behind a match can always be shown.
         */
        get: operations["listRuleVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the users and open invitations
         * @description Users oldest first, deactivated ones included; invitations not yet accepted and not expired.
         */
        get: operations["listUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Invite a person
         * @description Answers the invitation link, valid for 72 hours, shown once: send it to the person, who chooses a password there.
         */
        post: operations["inviteUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a user's role, or deactivate them
         * @description Deactivation ends their sessions at once. The last active Administrator cannot be demoted or deactivated (409).
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/v1/api/{orgId}/datasets/{datasetId}/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A dataset's reconciliation at a glance
         * @description The reconciled share by month (by count and by amount), open amounts by age, and rule hit counts: what the dashboard shows.
         */
        get: operations["getDatasetSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/dataset-overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every bank account at a glance
         * @description For each bank dataset over a period of months (at most 24): its transactions and how many are reconciled, what is left open as money in and money out per currency, its transactions by month, and its latest closing balance.
         */
        get: operations["getDatasetOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events
         * @description Every change that matters, in the order it was committed: status changes of transactions (before and after), match groups made and removed, suggestions, runs completed, failed or reverted, imports completed or failed. A consumer keeps the nextCursor of its last page and asks again with it later: it gets what happened since, each event once. Events of a change still being committed appear when it commits.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description The organization's endpoints, oldest first, with whether each is enabled and, for one that is failing, since when. Secrets are never listed.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description From now on every event of the chosen types (all by default) is POSTed to the URL as a Standard Webhooks message (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256>), at least once, retried with exponential backoff and jitter for up to 3 days. The answer holds the signing secret, shown this once; a retry with the same Idempotency-Key is a 409 rather than a second endpoint.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/webhook-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook endpoint */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Deletes the endpoint and its delivery history; messages not yet delivered are not sent.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description Changes what is given: url (checked as on creation), description, eventTypes, enabled. Enabling an endpoint checks its URL again, as on creation: one saved under settings that allowed it (WEBHOOK_ALLOW_PRIVATE_TARGETS) and refused now is a 409, unless a new url comes in the same change. Enabling an endpoint that was disabled for failing clears its failure record; deliveries that failed meanwhile can be sent again with redeliver.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/api/{orgId}/webhook-endpoints/{endpointId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description Makes a new signing secret, shown in this answer only. For 24 hours every delivery carries two signatures, one per secret, so the receiver can switch to the new secret at any moment without rejecting a message.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/webhook-endpoints/{endpointId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test message
         * @description Queues a message of type webhook.test to the endpoint, signed like any other; answers 202 with its delivery, which shows the outcome when it is sent.
         */
        post: operations["sendWebhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/webhook-endpoints/{endpointId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List deliveries
         * @description The endpoint's deliveries, newest first: status, attempts, the last answer's HTTP status and time, the next attempt of a pending one.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/webhook-endpoints/{endpointId}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a delivery with its attempts */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Sends a delivery that succeeded or failed again, with the same webhook-id (a receiver that has it already drops it); its retries start afresh. A delivery still pending is a 409.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List reconciliations
         * @description The reconciliations of the organization in the order they were created; archived ones only with includeArchived=true. Page with cursor.
         */
        get: operations["listReconciliations"];
        put?: never;
        /**
         * Create a reconciliation
         * @description Pairs bank datasets with ledger datasets of one currency. Every dataset must be the organization's, on one side only, in no other reconciliation (409), and of the reconciliation's currency when it declares one; every rule must be the organization's. The name is unique (409).
         */
        post: operations["createReconciliation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a reconciliation
         * @description The reconciliation, archived or not.
         */
        get: operations["getReconciliation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change or archive a reconciliation
         * @description The fields given replace the reconciliation's (a dataset list replaces the whole list), checked as on creation; "archived": true archives it, false restores it. Signed periods keep the statements they stored. While a period is approved, a change of what its figures are made of (the datasets, the currency, the ledger's opening balance or date, the period length) is refused (409 close.signedFiguresWouldChange, naming the period): reopen it first. The name, the rules, the adjustment and cash accounts and archiving can change at any time.
         */
        patch: operations["updateReconciliation"];
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}/periods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the periods of a reconciliation
         * @description Every period from the first that ends after the ledger's opening date to the one holding today, latest first: its state (open, prepared, approved), its unexplained difference, its open exceptions, who prepared and approved it and when, and every step of its sign-off (reopens included). A period ending on the opening date (an opening date on the last day of a month) is not listed: the opening balance is the one at the start of that day.
         */
        get: operations["listReconciliationPeriods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}/statement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the reconciliation statement of a period
         * @description The bank reconciliation statement at periodEnd (the last day of a period): balance per bank, items in the ledger not yet in the bank, items in the bank not yet in the ledger, the adjusted bank balance, adjustments, balance per ledger and the unexplained difference, each line with its items (docs/CLOSE.md). An open period's statement is computed from the data; a prepared or approved period's is the one stored when it was prepared. Transactions of another currency in the datasets are a 422 naming how many and where.
         */
        get: operations["getReconciliationStatement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}/statement-items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the items of one line of a period's statement
         * @description The items of one line of the statement of GET /statement, a page at a time, oldest first, with how many the line holds in all: what a screen shows when a line is opened. As for GET /statement, a prepared or approved period's items are those of the statement stored when it was prepared.
         */
        get: operations["listReconciliationStatementItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}/statement.pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the reconciliation statement as PDF
         * @description The statement of GET /statement as an A4 document: the statement page, then every item in an appendix; the signatures when signed, "DRAFT" across an open period. The file is named after the reconciliation and the period ("Operating account EUR - March 2026.pdf") in Content-Disposition. As for GET /statement, a prepared or approved period's is the statement stored when it was prepared; an open period's is computed from the data now.
         */
        get: operations["getReconciliationStatementPdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}/statement.xlsx": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the reconciliation statement as XLSX
         * @description The statement of GET /statement as a workbook: a Statement sheet whose lines are formulas over the Items sheet, the Items, and the Exceptions. An amount of more than 15 significant digits, which a spreadsheet cannot hold exactly, is a 422 (closeReports.amountTooLongForSpreadsheet): download the PDF or the CSV. As for GET /statement, a prepared or approved period's is the statement stored when it was prepared; an open period's is computed from the data now.
         */
        get: operations["getReconciliationStatementXlsx"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}/statement-items.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the statement's items as CSV
         * @description Every item of the statement's lines, one row each: line, date, dataset, description, reference, amount, counted amount, reason; then the rows set apart and the adjustments. UTF-8 with a byte order mark, CR LF, no cell that a spreadsheet would run as a formula. As for GET /statement, a prepared or approved period's is the statement stored when it was prepared; an open period's is computed from the data now.
         */
        get: operations["getReconciliationStatementItemsCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}/journal-entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Propose the journal entries of a period's adjustments
         * @description The period's adjustments (fee, fx, rounding, write-off) as the journal entries that bring them into the ledger, each a debit and a credit of the same amount: a bank that holds less (a fee of -6.50) debits the reason's account and credits the cash account; one that holds more the other way round. Accounts are the reconciliation's as they are now (cashAccount, adjustmentAccounts); an adjustment whose reason maps no account is a 409 (journalEntries.reasonsNotMapped, naming every such reason), a missing cash account a 409 (journalEntries.cashAccountNotMapped). The entries are proposals: nothing is posted. Journal numbers are ADJ-<period end YYYYMMDD>-<place>.
         */
        get: operations["getReconciliationJournalEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}/journal-entries.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the proposed journal entries of a period's adjustments as CSV
         * @description The period's adjustments (fee, fx, rounding, write-off) as the journal entries that bring them into the ledger, each a debit and a credit of the same amount: a bank that holds less (a fee of -6.50) debits the reason's account and credits the cash account; one that holds more the other way round. Accounts are the reconciliation's as they are now (cashAccount, adjustmentAccounts); an adjustment whose reason maps no account is a 409 (journalEntries.reasonsNotMapped, naming every such reason), a missing cash account a 409 (journalEntries.cashAccountNotMapped). The entries are proposals: nothing is posted. Journal numbers are ADJ-<period end YYYYMMDD>-<place>. The CSV has one row per line of an entry (Journal number, Date, Account, Debit, Credit, Currency, Memo, Bank reference, Match group), for a general-journal import.
         */
        get: operations["getReconciliationJournalEntriesCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}/periods/{periodEnd}/prepare": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prepare a period
         * @description Signs an open period as its preparer: its unexplained difference must be exactly 0.00 (409 naming it otherwise). The statement as it stands is stored with the note and is what the period shows from then on.
         */
        post: operations["prepareReconciliationPeriod"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}/periods/{periodEnd}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a period
         * @description Approves a prepared period, which closes it. Only an Administrator or a Reviewer may approve (403), and not the one who prepared it (403). The scope needed is read:data, as a Reviewer has no other; the role decides.
         */
        post: operations["approveReconciliationPeriod"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}/periods/{periodEnd}/reopen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reopen a period
         * @description Takes a prepared or approved period back to open, with a reason; Administrators only (403). The statements signed before stay in the period's record.
         */
        post: operations["reopenReconciliationPeriod"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/reconciliations/{reconciliationId}/exceptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a reconciliation's exceptions
         * @description The open items of the reconciliation's datasets dated on or before the period end — transactions neither matched in full nor set aside, nor resolved by a note — oldest first, each with its follow-up: assignee, due date, hold, comments. `view` narrows to mine, unassigned, overdue, on-hold or resolved; `age` to an age bucket; `assignee` to one user.
         */
        get: operations["listReconciliationExceptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/assignees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the people an exception can be assigned to
         * @description The organization's active users, by id and name, for any member (the users list, with roles and sign-ins, is for Administrators): what an assignee picker offers. A user's name is their e-mail, the name exceptions already show for their assignee and comments for their author.
         */
        get: operations["listAssignees"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/exceptions/assign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Assign many exceptions, give them a due date, or put them on hold, at once
         * @description Changes every listed transaction (at most 500) as PATCH /exceptions/{transactionId} would, all or nothing: assigneeUserId (null unassigns), dueDate (null clears it), holdReason (null takes them off hold); what is left out stays. A transaction not found in the organization, or an assignee who is not one of its active users, and nothing changes. Each change is in the audit trail and emits exception.assigned or exception.updated, one per exception, as single changes do.
         */
        post: operations["assignExceptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/exceptions/{transactionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one exception with its comments
         * @description A transaction as an exception: its follow-up and its comment thread, oldest first (whether or not it is still open).
         */
        get: operations["getException"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Assign an exception, give it a due date, or put it on hold
         * @description Changes what is sent and keeps the rest: assigneeUserId (an active user of the organization; null unassigns), dueDate (null clears it), holdReason (null takes it off hold). Changes are in the audit trail and emit exception.assigned and exception.updated.
         */
        patch: operations["updateException"];
        trace?: never;
    };
    "/v1/api/{orgId}/exceptions/{transactionId}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Comment on an exception
         * @description Adds a comment to the thread, by the caller; it is in the audit trail and emits exception.commented.
         */
        post: operations["commentException"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/exceptions/{transactionId}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resolve an exception by a note
         * @description Resolves an open exception by hand, with a note saying why nothing more is to be done; it leaves the open items and takes it off hold. A match or an adjustment resolves an exception by itself. 409 when it is resolved already or not open.
         */
        post: operations["resolveException"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/exceptions/{transactionId}/reopen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reopen an exception resolved by a note
         * @description Puts an exception resolved by a note back among the open items. One resolved by a match is reopened by deleting the match (409 here).
         */
        post: operations["reopenException"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List connections
         * @description The organization's connections, oldest first, with how their last runs went. Secrets are never answered.
         */
        get: operations["listConnections"];
        put?: never;
        /**
         * Create a connection
         * @description An SFTP server (host, port, username, and a key the service generates, a key sent, or a password) or a folder under CONNECTOR_FOLDER_ROOT. The secret is sealed (AES-256-GCM) and never answered; a generated key's public half is (publicKey). An SFTP connection is used only once its server's host key is confirmed: test it, check the fingerprint with the bank, and confirm it with PATCH hostKeyFingerprint.
         */
        post: operations["createConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/connections/{connectionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a connection */
        get: operations["getConnection"];
        put?: never;
        post?: never;
        /**
         * Delete a connection
         * @description Deletes the connection with its pickups and their history; the imports they made stay.
         */
        delete: operations["deleteConnection"];
        options?: never;
        head?: never;
        /**
         * Change a connection, or confirm its host key
         * @description Changes what is given. hostKeyFingerprint confirms the server's host key (the one the test showed); a new host or port forgets the confirmed key. A new authMethod, privateKey or password replaces the secret (generated_key makes a new key pair: hand its public half to the bank).
         */
        patch: operations["updateConnection"];
        trace?: never;
    };
    "/v1/api/{orgId}/connections/{connectionId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test a connection
         * @description Connects: shows the server's host key fingerprint (to confirm, the first time), refuses a key other than the confirmed one, logs in and reads every pickup folder. Changes nothing; what failed is in the answer (ok false, message).
         */
        post: operations["testConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/connections/{connectionId}/pickups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a connection's pickups */
        get: operations["listPickups"];
        put?: never;
        /**
         * Create a pickup
         * @description A folder and a file pattern to look at every intervalMinutes or at timesOfDay in a timeZone, and where the files go: one dataset, or routing by account. A file is taken once its size and time stay the same between two looks, imported once whatever its name, then left, moved to archivePath or deleted.
         */
        post: operations["createPickup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/connections/{connectionId}/pickups/{pickupId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a pickup */
        get: operations["getPickup"];
        put?: never;
        post?: never;
        /** Delete a pickup */
        delete: operations["deletePickup"];
        options?: never;
        head?: never;
        /** Change a pickup */
        patch: operations["updatePickup"];
        trace?: never;
    };
    "/v1/api/{orgId}/connections/{connectionId}/pickups/{pickupId}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a pickup now
         * @description Queues a run of the pickup now, besides its schedule; answers 202 with the run, whose record lists every file seen once it is over.
         */
        post: operations["runPickup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/connections/{connectionId}/pickups/{pickupId}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a pickup's runs
         * @description The latest runs, newest first, each with every file it saw and what happened to it.
         */
        get: operations["listPickupRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api/{orgId}/connections/{connectionId}/pickups/{pickupId}/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a pickup run */
        get: operations["getPickupRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every error of the /v1/api operations. */
        ErrorEnvelope: {
            error: {
                /** @description The HTTP status. */
                code: number;
                /** @description The HTTP reason phrase. */
                status: string;
                /** @description The request id; equals the X-Request-Id response header. */
                request: string;
                /** @description What is wrong and how to fix it. */
                message: string;
                /** @description The stable name of the message in the service's catalogue ("area.name", e.g. "imports.fileEmpty"), for a client that words its errors its own way; absent when the message has none. */
                messageId?: string;
                details?: {
                    path: string;
                    message: string;
                }[];
            };
        };
        /** SearchQuery */
        SearchQuery: {
            /** @description A standard field (id, description, type, timestamp, amount, currency, reconciliationStatus, reference) or a column of the dataset; case-insensitive. */
            path: string;
            /** SearchFilter */
            search: {
                /**
                 * @description Must fit the type of the field named by path: string, boolean, date (also number), number, money (also number).
                 * @enum {string}
                 */
                type: "string" | "boolean" | "date" | "number" | "money";
                /** @description string: a string or an array of strings (any of them). boolean: true or false. date: a NumberRange in epoch ms. number: a number, an array of numbers (any of them), a NumberExpression {operator: ne|ge|gt|le|lt, value} or a NumberRange {start, end, includeStart, includeEnd} (bounds optional, inclusive by default). money: as number, decimal strings accepted. Checked against the field's type; a problem is reported with the index of the query. */
                value: unknown;
                /** @description string filters: true means equality; otherwise a case-insensitive substring match. */
                exact?: boolean;
                /** @description money filters: only transactions in one of these currencies, e.g. ["EUR"]; codes match in upper or lower case. */
                currencies?: string[];
            };
        };
        /** @description An import and what came of it (SPEC §7). */
        ImportReport: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            datasetId: string;
            format: string | null;
            fileName: string | null;
            sha256: string | null;
            sizeBytes: number | null;
            encoding: string | null;
            /**
             * @description "undone": DELETE /imports/{id} removed the transactions it created; the report stays as it was.
             * @enum {string}
             */
            status: "running" | "completed" | "failed" | "undone";
            createdAt: string;
            completedAt: string | null;
            createdBy: string;
            /** @description Entries read so far; while running, the progress. */
            rowsRead: number;
            /** @description Entries new to the dataset, stored by this import. */
            inserted: number;
            /** @description Entries the dataset already held (the same entry from this or an earlier file). */
            duplicates: number;
            statements: {
                accountId: string | null;
                statementId: string | null;
                currency: string | null;
                openingBalance: {
                    amount: string;
                    date: string | null;
                } | null;
                closingBalance: {
                    amount: string;
                    date: string | null;
                } | null;
                entries: number;
                /** @description Entries of the statement stored as new transactions (absent in reports of imports made before it was counted per statement). */
                inserted?: number;
                /** @description Entries of the statement the dataset already held, from an earlier file or an earlier statement of this one: entries = inserted + duplicates, always. */
                duplicates?: number;
                /** @description The exact sum of the statement's entries, signed: money in positive. */
                sumOfEntries: string;
                /** @description Whether opening balance + sum of entries = closing balance; null when the file gives no opening or no closing balance. */
                balanced: boolean | null;
            }[];
            warnings: {
                line: number | null;
                message: string;
            }[];
            /** @description Why the import failed; null unless its status is "failed". */
            error: {
                /**
                 * @description file: the file does not follow its format (line, column, xmlPath say where); mapping: the CSV mapping does not fit; refused: the import cannot be done as asked; interrupted: the server stopped before the import ended; upload: the file did not arrive whole; internal: an error of the server. Nothing of a failed import is stored: send the file again once its cause is fixed.
                 * @enum {string}
                 */
                reason: "file" | "mapping" | "refused" | "interrupted" | "upload" | "internal";
                /** @description What went wrong and what to do. */
                message: string;
                /** @description The line of the file at fault (reason "file"). */
                line: number | null;
                column: string | null;
                xmlPath: string | null;
            } | null;
            undoneAt: string | null;
            undoneBy: string | null;
        };
        /** @description An open item of a reconciliation and its follow-up. */
        Exception: {
            /** Format: uuid */
            transactionId: string;
            transaction: {
                /** @description A calendar date, YYYY-MM-DD. */
                date: string;
                description: string | null;
                reference: string | null;
                amount: string | null;
                openAmount: string | null;
                currency: string | null;
                /** Format: uuid */
                datasetId: string;
                datasetName: string;
                /** @description The dataset's side in its reconciliation; null when it serves none. */
                side: "bank" | "ledger" | null;
                reconciliationStatus: string;
            };
            /** @description Days from the transaction's date to the period end (or today). */
            ageDays: number;
            assignee: {
                /** Format: uuid */
                id: string;
                email: string | null;
            } | null;
            dueDate: string | null;
            /** @description Open and past its due date. */
            overdue: boolean;
            holdReason: string | null;
            /** @description note: resolved by a note; matched or adjustment: the transaction is matched in full (read from its matches, never stored). */
            resolution: "matched" | "adjustment" | "note" | null;
            resolutionNote: string | null;
            resolvedAt: string | null;
            resolvedBy: string | null;
            commentCount: number;
            latestComment: {
                /** @description The author as the audit trail names actors, e.g. "user:ann@example.com". */
                author: string;
                /** @description The author in words: a person's email or an API client's name. */
                authorName: string;
                body: string;
                /** Format: date-time */
                createdAt: string;
            } | null;
        };
        /** @description A comment of an exception. */
        ExceptionComment: {
            /** Format: uuid */
            id: string;
            /** @description The author as the audit trail names actors, e.g. "user:ann@example.com". */
            author: string;
            /** @description The author in words: a person's email or an API client's name. */
            authorName: string;
            body: string;
            /** Format: date-time */
            createdAt: string;
        };
        OAuthError: {
            /** @enum {string} */
            error: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "access_denied" | "invalid_scope" | "too_many_requests" | "temporarily_unavailable";
            error_description: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    requestToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @enum {string} */
                    grant_type: "client_credentials";
                    client_id?: string;
                    client_secret?: string;
                    /** @description The API audience supplied with the credentials (default PUBLIC_URL/v1/api). */
                    audience: string;
                    /** @description Optional: space-separated scopes (read:data, write:data, manage:credentials), at most those of the client's role; the token carries exactly these. Without it, every scope of the role. */
                    scope?: string;
                };
                "application/json": {
                    /** @enum {string} */
                    grant_type: "client_credentials";
                    client_id?: string;
                    client_secret?: string;
                    /** @description The API audience supplied with the credentials (default PUBLIC_URL/v1/api). */
                    audience: string;
                    /** @description Optional: space-separated scopes (read:data, write:data, manage:credentials), at most those of the client's role; the token carries exactly these. Without it, every scope of the role. */
                    scope?: string;
                };
            };
        };
        responses: {
            /** @description The token. Cache-Control: no-store. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description An RS256 JWT (RFC 9068); send it as "Authorization: Bearer <token>". */
                        access_token: string;
                        /** @enum {string} */
                        token_type: "Bearer";
                        /** @description Lifetime in seconds (TOKEN_TTL_SECONDS, default 10800). */
                        expires_in: number;
                        scope: string;
                    };
                };
            };
            /** @description invalid_request, unsupported_grant_type or invalid_scope. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description invalid_client: one answer for an unknown client, a wrong secret, or revoked credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description access_denied: the audience is not this API. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description too_many_requests, with Retry-After: too many failed attempts for this client from this address, or from all addresses together. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description temporarily_unavailable, with Retry-After: the server is stopping and did not handle the request. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    getAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description issuer, token_endpoint, jwks_uri and the supported grant and authentication methods. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getSigningKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"keys": [JWK, ...]} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                    /**
                     * Format: uuid
                     * @description Only when the same email and password belong to several organizations (the answer says so).
                     */
                    organizationId?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        organizationId: string;
                        user: {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            role: "Administrator" | "Full member" | "View-only" | "Reviewer";
                        };
                        /**
                         * Format: date-time
                         * @description When the session ends; sign in again then.
                         */
                        expiresAt: string;
                        /** @description Where the organization's API clients get their tokens. */
                        tokenUrl: string;
                        /** @description The audience their token requests name. */
                        audience: string;
                        /** @description The organization's API: {base}/transactions and the other operations. */
                        apiBaseUrl: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        organizationId: string;
                        user: {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            role: "Administrator" | "Full member" | "View-only" | "Reviewer";
                        };
                        /**
                         * Format: date-time
                         * @description When the session ends; sign in again then.
                         */
                        expiresAt: string;
                        /** @description Where the organization's API clients get their tokens. */
                        tokenUrl: string;
                        /** @description The audience their token requests name. */
                        audience: string;
                        /** @description The organization's API: {base}/transactions and the other operations. */
                        apiBaseUrl: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSessionToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access_token: string;
                        /** @enum {string} */
                        token_type: "Bearer";
                        /** @description Seconds; ask for another before then. */
                        expires_in: number;
                        scope: string;
                        /** Format: uuid */
                        organizationId: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currentPassword: string;
                    newPassword: string;
                };
            };
        };
        responses: {
            /** @description Done. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                secret: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        email: string;
                        role: "Administrator" | "Full member" | "View-only" | "Reviewer";
                        /** Format: date-time */
                        expiresAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                secret: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        organizationId: string;
                        user: {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            role: "Administrator" | "Full member" | "View-only" | "Reviewer";
                        };
                        /**
                         * Format: date-time
                         * @description When the session ends; sign in again then.
                         */
                        expiresAt: string;
                        /** @description Where the organization's API clients get their tokens. */
                        tokenUrl: string;
                        /** @description The audience their token requests name. */
                        audience: string;
                        /** @description The organization's API: {base}/transactions and the other operations. */
                        apiBaseUrl: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    queryTransactions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The dataset (source) to read.
                     */
                    datasetId: string;
                    /**
                     * Format: uuid
                     * @description Accepted for compatibility with published samples and ignored.
                     */
                    integrationId?: string;
                    /** @description Records per page, 1 to 1000; default 100. */
                    limit?: number | string;
                    /** @description Records to skip, at least 0; default 0; no ceiling. */
                    offset?: number | string;
                    /** @description The published sample's spelling of offset; accepted as an alias. */
                    offest?: number | string;
                    /** @description Epoch milliseconds; transactions at or after this time. */
                    from?: number | string;
                    /** @description Epoch milliseconds; transactions at or before this time. */
                    to?: number | string;
                    /**
                     * @description The direction of sort (by timestamp unless sort says otherwise), then id. Default asc.
                     * @enum {string}
                     */
                    order?: "asc" | "desc";
                    /**
                     * @description What the page is sorted by, in the direction of order, ties broken by id: timestamp (default), amount (the exact decimal) or description (in lower case). Transactions without an amount or a description come last in ascending order. A cursor continues only the sort it was issued for.
                     * @enum {string}
                     */
                    sort?: "timestamp" | "amount" | "description";
                    /** @description The X-Next-Cursor of the previous page, instead of offset: continues at constant cost. Send the same query with it. */
                    cursor?: string;
                    /** @description Filters combined with AND. */
                    search?: Record<string, never>[];
                    /** @description Fields to add to each record as top-level properties. */
                    columns?: Record<string, never>[];
                };
            };
        };
        responses: {
            /** @description The page; an empty array when nothing matches. */
            200: {
                headers: {
                    /** @description Whether more transactions follow this page. */
                    "X-Has-More"?: "true" | "false";
                    /** @description Send as cursor to get the next page; absent when nothing follows. */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ({
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        datasetId: string;
                        /** @description none, partial and full are derived from matches; informative and out of scope are set. */
                        reconciliationStatus: "none" | "partial" | "full" | "informative" | "out of scope";
                        /** @description Matches in which this transaction is the origin. */
                        incomingMatches: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description The match group: the matches created together.
                             */
                            groupId: string;
                            /**
                             * Format: uuid
                             * @description The transaction whose amount the link allocates.
                             */
                            originId: string;
                            /** Format: uuid */
                            originDatasetId: string;
                            /** Format: uuid */
                            targetId: string;
                            /** Format: uuid */
                            targetDatasetId: string;
                            amount: string | null;
                            method: "manual" | "rule";
                            ruleId: string | null;
                            ruleVersion: number | null;
                            runId: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description The user, API client or rule that created the match. */
                            createdBy: string;
                        }[];
                        /** @description Matches in which this transaction is the target. */
                        outgoingMatches: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description The match group: the matches created together.
                             */
                            groupId: string;
                            /**
                             * Format: uuid
                             * @description The transaction whose amount the link allocates.
                             */
                            originId: string;
                            /** Format: uuid */
                            originDatasetId: string;
                            /** Format: uuid */
                            targetId: string;
                            /** Format: uuid */
                            targetDatasetId: string;
                            amount: string | null;
                            method: "manual" | "rule";
                            ruleId: string | null;
                            ruleVersion: number | null;
                            runId: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description The user, API client or rule that created the match. */
                            createdBy: string;
                        }[];
                        description: string | null;
                        type: string | null;
                        /** @description Epoch milliseconds. */
                        timestamp: number;
                    } & {
                        [key: string]: unknown;
                    })[];
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTransaction: {
        parameters: {
            query?: {
                /** @description Comma-separated paths of fields to add to the record, e.g. "amount,currency". */
                columns?: string;
            };
            header?: never;
            path: {
                orgId: string;
                transactionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A transaction with its matches and reconciliation status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        datasetId: string;
                        /** @description none, partial and full are derived from matches; informative and out of scope are set. */
                        reconciliationStatus: "none" | "partial" | "full" | "informative" | "out of scope";
                        /** @description Matches in which this transaction is the origin. */
                        incomingMatches: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description The match group: the matches created together.
                             */
                            groupId: string;
                            /**
                             * Format: uuid
                             * @description The transaction whose amount the link allocates.
                             */
                            originId: string;
                            /** Format: uuid */
                            originDatasetId: string;
                            /** Format: uuid */
                            targetId: string;
                            /** Format: uuid */
                            targetDatasetId: string;
                            amount: string | null;
                            method: "manual" | "rule";
                            ruleId: string | null;
                            ruleVersion: number | null;
                            runId: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description The user, API client or rule that created the match. */
                            createdBy: string;
                        }[];
                        /** @description Matches in which this transaction is the target. */
                        outgoingMatches: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description The match group: the matches created together.
                             */
                            groupId: string;
                            /**
                             * Format: uuid
                             * @description The transaction whose amount the link allocates.
                             */
                            originId: string;
                            /** Format: uuid */
                            originDatasetId: string;
                            /** Format: uuid */
                            targetId: string;
                            /** Format: uuid */
                            targetDatasetId: string;
                            amount: string | null;
                            method: "manual" | "rule";
                            ruleId: string | null;
                            ruleVersion: number | null;
                            runId: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description The user, API client or rule that created the match. */
                            createdBy: string;
                        }[];
                        description: string | null;
                        type: string | null;
                        /** @description Epoch milliseconds. */
                        timestamp: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    setTransactionStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                transactionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Set "informative" or "out of scope" (only on a transaction without matches), or "none" to clear the set status. */
                    reconciliationStatus: "informative" | "out of scope" | "none";
                    /** @description Why; recorded in the audit trail. */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description A transaction with its matches and reconciliation status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        datasetId: string;
                        /** @description none, partial and full are derived from matches; informative and out of scope are set. */
                        reconciliationStatus: "none" | "partial" | "full" | "informative" | "out of scope";
                        /** @description Matches in which this transaction is the origin. */
                        incomingMatches: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description The match group: the matches created together.
                             */
                            groupId: string;
                            /**
                             * Format: uuid
                             * @description The transaction whose amount the link allocates.
                             */
                            originId: string;
                            /** Format: uuid */
                            originDatasetId: string;
                            /** Format: uuid */
                            targetId: string;
                            /** Format: uuid */
                            targetDatasetId: string;
                            amount: string | null;
                            method: "manual" | "rule";
                            ruleId: string | null;
                            ruleVersion: number | null;
                            runId: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description The user, API client or rule that created the match. */
                            createdBy: string;
                        }[];
                        /** @description Matches in which this transaction is the target. */
                        outgoingMatches: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description The match group: the matches created together.
                             */
                            groupId: string;
                            /**
                             * Format: uuid
                             * @description The transaction whose amount the link allocates.
                             */
                            originId: string;
                            /** Format: uuid */
                            originDatasetId: string;
                            /** Format: uuid */
                            targetId: string;
                            /** Format: uuid */
                            targetDatasetId: string;
                            amount: string | null;
                            method: "manual" | "rule";
                            ruleId: string | null;
                            ruleVersion: number | null;
                            runId: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description The user, API client or rule that created the match. */
                            createdBy: string;
                        }[];
                        description: string | null;
                        type: string | null;
                        /** @description Epoch milliseconds. */
                        timestamp: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listSources: {
        parameters: {
            query?: {
                /** @description Also list archived datasets (default false). */
                includeArchived?: "true" | "false";
            };
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        datasets: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @description Grows with every change of the dataset's transactions or of their reconciliation status. */
                            revision: number;
                            /** @description "active", or "archived": hidden from GET /sources unless includeArchived=true, its transactions and matches kept as they are. */
                            status: string;
                            /** Format: date-time */
                            createdAt: string;
                            lastUpdatedBy: string | null;
                            /** Format: date-time */
                            lastUpdatedAt: string;
                            lastReceived: string | null;
                            /** @description The latest transaction timestamp received, epoch milliseconds. */
                            latestTimestamp: number | null;
                            failures: number;
                            lastFile: string | null;
                            /** Format: uuid */
                            sourceId: string;
                            accountId: string | null;
                            currency: string | null;
                            /** @description Every column of the dataset: the standard ones, then the custom ones. */
                            columns: {
                                name: string;
                                /** @description string, number, money (an exact decimal, sent as a string), date (epoch milliseconds) or boolean. */
                                type: "string" | "number" | "money" | "date" | "boolean";
                                /** @description Whether every dataset has this column. */
                                standard: boolean;
                            }[];
                            transactionCount: number;
                            /** @description Transactions per reconciliation status. */
                            statusCounts: {
                                none: number;
                                partial: number;
                                full: number;
                                informative: number;
                                "out of scope": number;
                            };
                        }[];
                        /** Format: date-time */
                        createdAt: string;
                    }[];
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createSource: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The source's name, e.g. "Bank of Example". */
                    name: string;
                };
            };
        };
        responses: {
            /** @description A source (a bank, a PSP, an ERP...) and its datasets. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        datasets: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @description Grows with every change of the dataset's transactions or of their reconciliation status. */
                            revision: number;
                            /** @description "active", or "archived": hidden from GET /sources unless includeArchived=true, its transactions and matches kept as they are. */
                            status: string;
                            /** Format: date-time */
                            createdAt: string;
                            lastUpdatedBy: string | null;
                            /** Format: date-time */
                            lastUpdatedAt: string;
                            lastReceived: string | null;
                            /** @description The latest transaction timestamp received, epoch milliseconds. */
                            latestTimestamp: number | null;
                            failures: number;
                            lastFile: string | null;
                            /** Format: uuid */
                            sourceId: string;
                            accountId: string | null;
                            currency: string | null;
                            /** @description Every column of the dataset: the standard ones, then the custom ones. */
                            columns: {
                                name: string;
                                /** @description string, number, money (an exact decimal, sent as a string), date (epoch milliseconds) or boolean. */
                                type: "string" | "number" | "money" | "date" | "boolean";
                                /** @description Whether every dataset has this column. */
                                standard: boolean;
                            }[];
                            transactionCount: number;
                            /** @description Transactions per reconciliation status. */
                            statusCounts: {
                                none: number;
                                partial: number;
                                full: number;
                                informative: number;
                                "out of scope": number;
                            };
                        }[];
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateSource: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                sourceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The source's new name. */
                    name: string;
                };
            };
        };
        responses: {
            /** @description A source (a bank, a PSP, an ERP...) and its datasets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        datasets: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @description Grows with every change of the dataset's transactions or of their reconciliation status. */
                            revision: number;
                            /** @description "active", or "archived": hidden from GET /sources unless includeArchived=true, its transactions and matches kept as they are. */
                            status: string;
                            /** Format: date-time */
                            createdAt: string;
                            lastUpdatedBy: string | null;
                            /** Format: date-time */
                            lastUpdatedAt: string;
                            lastReceived: string | null;
                            /** @description The latest transaction timestamp received, epoch milliseconds. */
                            latestTimestamp: number | null;
                            failures: number;
                            lastFile: string | null;
                            /** Format: uuid */
                            sourceId: string;
                            accountId: string | null;
                            currency: string | null;
                            /** @description Every column of the dataset: the standard ones, then the custom ones. */
                            columns: {
                                name: string;
                                /** @description string, number, money (an exact decimal, sent as a string), date (epoch milliseconds) or boolean. */
                                type: "string" | "number" | "money" | "date" | "boolean";
                                /** @description Whether every dataset has this column. */
                                standard: boolean;
                            }[];
                            transactionCount: number;
                            /** @description Transactions per reconciliation status. */
                            statusCounts: {
                                none: number;
                                partial: number;
                                full: number;
                                informative: number;
                                "out of scope": number;
                            };
                        }[];
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createDataset: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                sourceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /**
                     * @description Custom columns beyond the standard ones (timestamp, description, type, reference, currency, amount); at most 50.
                     * @default []
                     */
                    columns?: {
                        /** @description Starts with a letter; letters, digits and underscores. Unique without regard to case; the standard columns, externalId and the fields of the transaction record are reserved. */
                        name: string;
                        /** @description string, number, money (an exact decimal, sent as a string), date (epoch milliseconds) or boolean. */
                        type: "string" | "number" | "money" | "date" | "boolean";
                    }[];
                };
            };
        };
        responses: {
            /** @description A dataset: the published fields, then source, columns and counts. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        /** @description Grows with every change of the dataset's transactions or of their reconciliation status. */
                        revision: number;
                        /** @description "active", or "archived": hidden from GET /sources unless includeArchived=true, its transactions and matches kept as they are. */
                        status: string;
                        /** Format: date-time */
                        createdAt: string;
                        lastUpdatedBy: string | null;
                        /** Format: date-time */
                        lastUpdatedAt: string;
                        lastReceived: string | null;
                        /** @description The latest transaction timestamp received, epoch milliseconds. */
                        latestTimestamp: number | null;
                        failures: number;
                        lastFile: string | null;
                        /** Format: uuid */
                        sourceId: string;
                        accountId: string | null;
                        currency: string | null;
                        /** @description Every column of the dataset: the standard ones, then the custom ones. */
                        columns: {
                            name: string;
                            /** @description string, number, money (an exact decimal, sent as a string), date (epoch milliseconds) or boolean. */
                            type: "string" | "number" | "money" | "date" | "boolean";
                            /** @description Whether every dataset has this column. */
                            standard: boolean;
                        }[];
                        transactionCount: number;
                        /** @description Transactions per reconciliation status. */
                        statusCounts: {
                            none: number;
                            partial: number;
                            full: number;
                            informative: number;
                            "out of scope": number;
                        };
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateDataset: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                datasetId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The dataset's new name. */
                    name?: string;
                    /** @description true archives the dataset: it is hidden from GET /sources unless includeArchived=true, and keeps its transactions, matches and imports; false restores it. */
                    archived?: boolean;
                    /** @description The bank account whose statements the dataset holds: an IBAN (spaces are removed) or the bank's account number; null clears it, and the next statement import sets it. */
                    accountId?: string | null;
                    /** @description ISO 4217 code in capitals, e.g. "EUR"; null clears it. */
                    currency?: string | null;
                };
            };
        };
        responses: {
            /** @description A dataset: the published fields, then source, columns and counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        /** @description Grows with every change of the dataset's transactions or of their reconciliation status. */
                        revision: number;
                        /** @description "active", or "archived": hidden from GET /sources unless includeArchived=true, its transactions and matches kept as they are. */
                        status: string;
                        /** Format: date-time */
                        createdAt: string;
                        lastUpdatedBy: string | null;
                        /** Format: date-time */
                        lastUpdatedAt: string;
                        lastReceived: string | null;
                        /** @description The latest transaction timestamp received, epoch milliseconds. */
                        latestTimestamp: number | null;
                        failures: number;
                        lastFile: string | null;
                        /** Format: uuid */
                        sourceId: string;
                        accountId: string | null;
                        currency: string | null;
                        /** @description Every column of the dataset: the standard ones, then the custom ones. */
                        columns: {
                            name: string;
                            /** @description string, number, money (an exact decimal, sent as a string), date (epoch milliseconds) or boolean. */
                            type: "string" | "number" | "money" | "date" | "boolean";
                            /** @description Whether every dataset has this column. */
                            standard: boolean;
                        }[];
                        transactionCount: number;
                        /** @description Transactions per reconciliation status. */
                        statusCounts: {
                            none: number;
                            partial: number;
                            full: number;
                            informative: number;
                            "out of scope": number;
                        };
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    ingestTransactions: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                datasetId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description At most 10000 records, stored all or nothing. */
                    records: {
                        [key: string]: unknown;
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Records stored by this request. */
                        inserted: number;
                        /** @description Records skipped because their externalId was already in the dataset or earlier in the batch. */
                        duplicates: number;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createMatches: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The links of one match group, processed in order. */
                    links: {
                        /** Format: uuid */
                        originId: string;
                        /** Format: uuid */
                        targetId: string;
                        /** @description The part of the origin's amount to allocate, a positive decimal (preferably a string, e.g. "120.50"). By default, what is left of both sides. */
                        amount?: string | number;
                    }[];
                    /** @description Why; recorded in the audit trail. */
                    note?: string;
                    /**
                     * @description Allow allocating more than is left of a side, or matching across currencies. Forced links are marked and recorded.
                     * @default false
                     */
                    force?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        groupId: string;
                        /** @description Whether any link was allowed only because the request forced it. */
                        forced: boolean;
                        matches: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description The match group: the matches created together.
                             */
                            groupId: string;
                            /**
                             * Format: uuid
                             * @description The transaction whose amount the link allocates.
                             */
                            originId: string;
                            /** Format: uuid */
                            originDatasetId: string;
                            /** Format: uuid */
                            targetId: string;
                            /** Format: uuid */
                            targetDatasetId: string;
                            amount: string | null;
                            method: "manual" | "rule";
                            ruleId: string | null;
                            ruleVersion: number | null;
                            runId: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description The user, API client or rule that created the match. */
                            createdBy: string;
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteMatch: {
        parameters: {
            query?: {
                /** @description Why; recorded in the audit trail. */
                note?: string;
            };
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                matchId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMatchGroup: {
        parameters: {
            query?: {
                /** @description Matches per page; without limit or cursor, all the group's matches and no nextCursor. With either, 1000 by default. */
                limit?: number | string;
                /** @description The nextCursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                orgId: string;
                groupId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        method: "manual" | "rule";
                        ruleId: string | null;
                        ruleVersion: number | null;
                        runId: string | null;
                        suggestionId: string | null;
                        forced: boolean;
                        note: string | null;
                        /** @description The difference a tolerance closed, counted toward both sides. */
                        adjustment: {
                            amount: string;
                            reason: string;
                        } | null;
                        /** @description For a rule-made group: each condition with both values, the difference and whether it held, the score, and the runners-up. */
                        evidence: unknown;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** @description Oldest first: all of them, or the page asked for. */
                        matches: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description The match group: the matches created together.
                             */
                            groupId: string;
                            /**
                             * Format: uuid
                             * @description The transaction whose amount the link allocates.
                             */
                            originId: string;
                            /** Format: uuid */
                            originDatasetId: string;
                            /** Format: uuid */
                            targetId: string;
                            /** Format: uuid */
                            targetDatasetId: string;
                            amount: string | null;
                            method: "manual" | "rule";
                            ruleId: string | null;
                            ruleVersion: number | null;
                            runId: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** @description The user, API client or rule that created the match. */
                            createdBy: string;
                        }[];
                        /** @description Only when a page was asked for (limit or cursor): where the next page starts; null on the last. */
                        nextCursor?: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteMatchGroup: {
        parameters: {
            query?: {
                /** @description Why; recorded in the audit trail. */
                note?: string;
            };
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                groupId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                /** @description Only events about this transaction (on either side of a match). */
                transactionId?: string;
                /** @description Events at or after this time, epoch milliseconds. */
                from?: number | string;
                /** @description Events at or before this time, epoch milliseconds. */
                to?: number | string;
                /** @description Only the changes of this person or client, as events name them in actor: "user:ann@example.com" or "client:CLIENT_ID". */
                actor?: string;
                /** @description Only events of this action. */
                action?: "match.created" | "match.deleted" | "transaction.status_changed" | "rule.created" | "rule.updated" | "rule.deleted" | "rules.reordered" | "suggestion.confirmed" | "suggestion.rejected" | "import.undone" | "import.started" | "import.completed" | "import.failed" | "source.created" | "source.updated" | "dataset.created" | "dataset.updated" | "dataset.archived" | "dataset.restored" | "run.discarded" | "client.created" | "user.invited" | "user.joined" | "user.updated" | "user.password_changed" | "reconciliation.created" | "reconciliation.updated" | "close_period.prepared" | "close_period.approved" | "close_period.reopened" | "exception.assigned" | "exception.updated" | "exception.commented" | "exception.resolved" | "exception.reopened";
                /** @description Only events about this kind of object: transaction (transaction.status_changed); match (match.created, match.deleted); rule (rule.created, rule.updated, rule.deleted, rules.reordered); suggestion (suggestion.confirmed, suggestion.rejected); run (run.discarded); import (import.started, import.completed, import.failed, import.undone); source (source.created, source.updated); dataset (dataset.created, dataset.updated, dataset.archived, dataset.restored); client (client.created); user (user.invited, user.joined, user.updated, user.password_changed); reconciliation (reconciliation.created, reconciliation.updated, close_period.prepared, close_period.approved, close_period.reopened); exception (exception.assigned, exception.updated, exception.commented, exception.resolved, exception.reopened). */
                object?: "transaction" | "match" | "rule" | "suggestion" | "run" | "import" | "source" | "dataset" | "client" | "user" | "reconciliation" | "exception";
                /** @description oldest (the default) pages from the first event on and gives a cursor on the last page too, to follow the trail as it grows; newest pages from the latest event back, and its last page has no cursor. A cursor is read only in the order that gave it. */
                order?: "oldest" | "newest";
                /** @description Events per page, 1..1000; 100 by default. */
                limit?: number | string;
                /** @description The nextCursor of an earlier answer: continue after its last event. */
                cursor?: string;
            };
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Oldest first, or newest first with order=newest. */
                        events: {
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            occurredAt: string;
                            /** @description Who made the change: "user:EMAIL", "client:CLIENT_ID", or what the service did (a run, the command line). */
                            actor: string;
                            /** @description Who made the change in words: the person's email, the API client's name, or the actor as written. */
                            actorName: string;
                            /** @description One of match.created, match.deleted, transaction.status_changed, rule.created, rule.updated, rule.deleted, rules.reordered, suggestion.confirmed, suggestion.rejected, import.undone, import.started, import.completed, import.failed, source.created, source.updated, dataset.created, dataset.updated, dataset.archived, dataset.restored, run.discarded, client.created, user.invited, user.joined, user.updated, user.password_changed, reconciliation.created, reconciliation.updated, close_period.prepared, close_period.approved, close_period.reopened, exception.assigned, exception.updated, exception.commented, exception.resolved, exception.reopened. */
                            action: string;
                            transactionId: string | null;
                            /** @description For match events, the target transaction (transactionId is the origin). */
                            relatedTransactionId: string | null;
                            matchId: string | null;
                            groupId: string | null;
                            /** @description The state before the change; null for a creation. */
                            before: unknown;
                            /** @description The state after the change; null for a deletion. */
                            after: unknown;
                            note: string | null;
                            /** @description The X-Request-Id of the request that made the change. */
                            requestId: string | null;
                        }[];
                        /** @description Pass as cursor to continue after the last event; also given on the last page, to follow the trail as it grows. */
                        nextCursor: string | null;
                        /** @description Whether more events match beyond this page. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listClients: {
        parameters: {
            query?: {
                /** @description Also list revoked clients (default false). */
                includeRevoked?: "true" | "false";
            };
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The client_id of an API client. */
                        clientId: string;
                        name: string;
                        /** @description Administrator: everything, including credentials; Full member: read and write data; View-only: read. */
                        role: "Administrator" | "Full member" | "View-only" | "Reviewer";
                        /** Format: date-time */
                        createdAt: string;
                        /** @description Who created the client. */
                        createdBy: string;
                        revokedAt: string | null;
                        /** @description When the client last got a token, to the minute; null when it never did. */
                        lastUsedAt: string | null;
                        /** @description The active secrets (at most 2); the secrets themselves are never shown again. */
                        secrets: {
                            /** Format: uuid */
                            secretId: string;
                            /** @description The last characters of the secret, to tell secrets apart. */
                            hint: string;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                    }[];
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createClient: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What the client is for, e.g. "ERP export". */
                    name: string;
                    /** @description Administrator: everything, including credentials; Full member: read and write data; View-only: read. */
                    role: "Administrator" | "Full member" | "View-only" | "Reviewer";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The client_id of an API client. */
                        clientId: string;
                        /** @description Shown in this answer only; store it now. */
                        clientSecret: string;
                        name: string;
                        /** @description Administrator: everything, including credentials; Full member: read and write data; View-only: read. */
                        role: "Administrator" | "Full member" | "View-only" | "Reviewer";
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    revokeClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                /** @description The client_id of an API client. */
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createClientSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                /** @description The client_id of an API client. */
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The client_id of an API client. */
                        clientId: string;
                        /** Format: uuid */
                        secretId: string;
                        /** @description Shown in this answer only; store it now. */
                        clientSecret: string;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    revokeClientSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                /** @description The client_id of an API client. */
                clientId: string;
                /** @description The id of a secret, as listed. */
                secretId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    importFile: {
        parameters: {
            query?: {
                /** @description The file's format; detected from its content when left out. */
                format?: "csv" | "camt.052" | "camt.053" | "camt.054" | "mt940" | "mt942" | "bai2" | "ofx";
                /** @description The file's name, for the report and the dataset's lastFile (multipart uploads carry their own). */
                fileName?: string;
                /** @description CSV: the name of a mapping saved on the dataset. */
                mapping?: string;
                /** @description For files that do not declare their encoding (MT940/942, BAI2, OFX 1.x with a wrong header, CSV without a mapping): a WHATWG label or cp437/cp850/cp852/cp775. Default: UTF-8 (a byte-order mark wins); a file that is not UTF-8 is read in the code page of its statement's country that fits its letters best (Windows-1252 first for Western Europe), named in a warning. */
                encoding?: string;
                /** @description A dataset holds the statements of one account (its accountId, taken from the first statement imported). A statement of another account is refused (409) unless this is "true". */
                allowOtherAccount?: "true" | "false";
            };
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                datasetId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
                "text/csv": string;
                "application/xml": string;
                "text/xml": string;
                "text/plain": string;
                "application/x-ofx": string;
                "application/ofx": string;
                "application/vnd.intu.qfx": string;
                "multipart/form-data": {
                    /** @description The CSV mapping as JSON (before the file part). */
                    mapping?: string;
                    /** @description The file itself. */
                    file: string;
                };
            };
        };
        responses: {
            /** @description An import and what came of it (SPEC §7). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportReport"];
                };
            };
            /** @description An import and what came of it (SPEC §7). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportReport"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    previewImport: {
        parameters: {
            query?: {
                /** @description The file's encoding, when detection would guess wrong. */
                encoding?: string;
            };
            header?: never;
            path: {
                orgId: string;
                datasetId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
                "text/csv": string;
                "application/xml": string;
                "text/xml": string;
                "text/plain": string;
                "application/x-ofx": string;
                "application/ofx": string;
                "application/vnd.intu.qfx": string;
                "multipart/form-data": {
                    /** @description The file itself. */
                    file: string;
                };
            };
        };
        responses: {
            /** @description What the head of a CSV file says about how to read it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        encoding: string;
                        delimiter: string;
                        quote: string | null;
                        header: boolean;
                        skipRows: number;
                        decimalSeparator: string;
                        thousandsSeparator: string;
                        dateFormat: string | null;
                        dateFormatAmbiguous: boolean;
                        columns: string[];
                        /** @description The proposed mapping, or null when no date or amount column was found (see problems). */
                        mapping: unknown;
                        /** @description Whether the header names the dataset's columns, so the file imports without a mapping. */
                        standardHeader: boolean;
                        /** @description The payment provider's settlement report the header is, which imports with its preset and without a mapping; null for any other file. */
                        preset: {
                            /** @description The preset: stripe-payout-reconciliation, adyen-settlement-details or paypal-settlement. */
                            name: string;
                            /** @description The report, in the provider's words. */
                            title: string;
                        } | null;
                        problems: string[];
                        /** @description What the proposal could not decide, in words, each with what to check or set (the problems among them); empty when the proposed mapping reads the file as it is. */
                        questions: string[];
                        /** @description The first 20 rows read with the proposed mapping (as entries), or the raw fields without one. */
                        rows: unknown[];
                        warnings: {
                            line: number | null;
                            message: string;
                        }[];
                        /** @description The mapping saved on the dataset for a file of this header (the newest that fits); null when none fits or a mapping was sent. */
                        savedMapping: {
                            name: string;
                            /** @description The saved CSV mapping. */
                            mapping: unknown;
                        } | null;
                        /** @description The header under the settings of the mapping the rows were checked with. */
                        checkedColumns: string[];
                        /** @description The first 20 rows read one by one with the mapping sent, else the saved one, else the proposed one. */
                        checkedRows: {
                            /** @description The line of the file where the row starts. */
                            line: number;
                            /** @description The fields as written. */
                            fields: string[];
                            /** @description The entry the row becomes; null when it is refused or left out. */
                            entry: unknown;
                            problem: string | null;
                            /** @description Whether a skip rule of the mapping leaves the row out. */
                            skipped: boolean;
                        }[];
                        /** @description What stops the mapping from reading the file at all; null when nothing does. */
                        mappingProblem: {
                            field: string | null;
                            message: string;
                        } | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listImports: {
        parameters: {
            query?: {
                datasetId?: string;
                cursor?: string;
                /** @description Imports per page, newest first; default 50. */
                limit?: number | string;
            };
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        imports: components["schemas"]["ImportReport"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                importId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An import and what came of it (SPEC §7). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportReport"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    undoImport: {
        parameters: {
            query?: {
                /** @description "true" dissolves the match groups of the import's matched transactions (as DELETE /match-groups/{id} does) and undoes the import; without it an import with matched transactions is refused (409). */
                unmatch?: "true" | "false";
                /** @description Recorded with the audit events of the undo. */
                note?: string;
            };
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                importId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The undone import, and what the undo removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        import: components["schemas"]["ImportReport"];
                        /** @description Transactions removed. */
                        removed: number;
                        matchGroupsDissolved: number;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    previewImportUndo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                importId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What undoing an import would remove. Nothing is changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        importId: string;
                        /** @description Whether DELETE /imports/{id} would go through without unmatch=true. */
                        undoable: boolean;
                        refusal: string | null;
                        /** @description Transactions the import created, which an undo removes. */
                        transactions: number;
                        /** @description How many of them are matched: undoing then needs unmatch=true. */
                        matched: number;
                        /** @description Match groups unmatch=true would dissolve. */
                        matchGroups: number;
                        /** @description The matched transactions, the first 100 by date. */
                        matchedTransactions: {
                            /** Format: uuid */
                            id: string;
                            externalId: string | null;
                            /** @description Epoch milliseconds. */
                            timestamp: number;
                            description: string | null;
                            amount: string | null;
                            currency: string | null;
                            reconciliationStatus: string;
                            matchGroupIds: string[];
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listImportMappings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                datasetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        /** @description The CSV mapping (SPEC §7). */
                        mapping: unknown;
                        createdAt: string;
                        updatedAt: string;
                        updatedBy: string;
                    }[];
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getImportMapping: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                datasetId: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        /** @description The CSV mapping (SPEC §7). */
                        mapping: unknown;
                        createdAt: string;
                        updatedAt: string;
                        updatedBy: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    saveImportMapping: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                datasetId: string;
                name: string;
            };
            cookie?: never;
        };
        /** @description The CSV mapping: {"columns": {...}, "delimiter", "decimalSeparator", "dateFormat", "amount", ...}, where "amount" is {"debit": column, "credit": column} or {"column": column, "indicator": {"column": column, "debit": ["Af"], "credit": ["Bij"]}}; see docs/IMPORTS.md. */
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        /** @description The CSV mapping (SPEC §7). */
                        mapping: unknown;
                        createdAt: string;
                        updatedAt: string;
                        updatedBy: string;
                    };
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        /** @description The CSV mapping (SPEC §7). */
                        mapping: unknown;
                        createdAt: string;
                        updatedAt: string;
                        updatedBy: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteImportMapping: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                datasetId: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listRuns: {
        parameters: {
            query?: {
                status?: "queued" | "running" | "completed" | "failed" | "cancelled" | "reverted";
                /** @description Runs per page; 50 by default. */
                limit?: number | string;
                cursor?: string;
            };
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        runs: {
                            /** Format: uuid */
                            id: string;
                            mode: "dry-run" | "commit";
                            /** @description ingest: started by an ingest or import for rules with runOnIngest. */
                            trigger: "request" | "ingest";
                            status: "queued" | "running" | "completed" | "failed" | "cancelled" | "reverted";
                            /** @description The rule versions the run applies, in order. */
                            rules: {
                                /** Format: uuid */
                                id: string;
                                version: number;
                                name?: string;
                            }[];
                            datasetIds: string[] | null;
                            from: number | null;
                            to: number | null;
                            /** @description Open origin transactions examined, of the total the rules look at. */
                            progress: {
                                examined: number;
                                total: number;
                            };
                            /** @description Per rule, in run order. */
                            counts: {
                                /** Format: uuid */
                                ruleId: string;
                                ruleVersion: number;
                                name: string;
                                matched: number;
                                suggested: number;
                                ambiguous: number;
                                classified: number;
                                /** @description Transactions or groups a search could not finish within its bounds; listed in the results of kind "bounds". */
                                boundsHit: number;
                                /** @description Candidate pairs (or groups) that satisfied every condition. */
                                candidates: number;
                                durationMilliseconds: number;
                            }[];
                            totals: {
                                matched: number;
                                suggested: number;
                                ambiguous: number;
                                classified: number;
                                boundsHit: number;
                                /** @description Open transactions the rules would have looked at but left alone, because they are dated in a closed (approved) period of a reconciliation of their dataset; reopen the period to match them. */
                                closedPeriodSkipped: number;
                            };
                            /** @description decideMilliseconds, applyMilliseconds, totalMilliseconds and the attempt. */
                            timings: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            createdAt: string;
                            createdBy: string;
                            startedAt: string | null;
                            finishedAt: string | null;
                            /** @description When a dry run was committed. */
                            committedAt: string | null;
                            committedBy: string | null;
                            revertedAt: string | null;
                            revertedBy: string | null;
                            /** @description What the revert deleted and the groups it left, with why. */
                            revert: unknown | null;
                            error: ({
                                message: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    startRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description dry-run records what the rules would do (commit it later with POST /runs/{id}/commit); commit does it. */
                    mode: "dry-run" | "commit";
                    /** @description Only these rules, in priority order (disabled ones included); all enabled rules by default. */
                    ruleIds?: string[];
                    /** @description Only transactions of these datasets take part. */
                    datasetIds?: string[];
                    /** @description Only origin transactions dated at or after this time, epoch milliseconds. */
                    from?: number | string;
                    /** @description Only origin transactions dated at or before this time, epoch milliseconds. */
                    to?: number | string;
                };
            };
        };
        responses: {
            /** @description A run of matching rules (SPEC §8.3). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        mode: "dry-run" | "commit";
                        /** @description ingest: started by an ingest or import for rules with runOnIngest. */
                        trigger: "request" | "ingest";
                        status: "queued" | "running" | "completed" | "failed" | "cancelled" | "reverted";
                        /** @description The rule versions the run applies, in order. */
                        rules: {
                            /** Format: uuid */
                            id: string;
                            version: number;
                            name?: string;
                        }[];
                        datasetIds: string[] | null;
                        from: number | null;
                        to: number | null;
                        /** @description Open origin transactions examined, of the total the rules look at. */
                        progress: {
                            examined: number;
                            total: number;
                        };
                        /** @description Per rule, in run order. */
                        counts: {
                            /** Format: uuid */
                            ruleId: string;
                            ruleVersion: number;
                            name: string;
                            matched: number;
                            suggested: number;
                            ambiguous: number;
                            classified: number;
                            /** @description Transactions or groups a search could not finish within its bounds; listed in the results of kind "bounds". */
                            boundsHit: number;
                            /** @description Candidate pairs (or groups) that satisfied every condition. */
                            candidates: number;
                            durationMilliseconds: number;
                        }[];
                        totals: {
                            matched: number;
                            suggested: number;
                            ambiguous: number;
                            classified: number;
                            boundsHit: number;
                            /** @description Open transactions the rules would have looked at but left alone, because they are dated in a closed (approved) period of a reconciliation of their dataset; reopen the period to match them. */
                            closedPeriodSkipped: number;
                        };
                        /** @description decideMilliseconds, applyMilliseconds, totalMilliseconds and the attempt. */
                        timings: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        /** @description When a dry run was committed. */
                        committedAt: string | null;
                        committedBy: string | null;
                        revertedAt: string | null;
                        revertedBy: string | null;
                        /** @description What the revert deleted and the groups it left, with why. */
                        revert: unknown | null;
                        error: ({
                            message: string;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A run of matching rules (SPEC §8.3). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        mode: "dry-run" | "commit";
                        /** @description ingest: started by an ingest or import for rules with runOnIngest. */
                        trigger: "request" | "ingest";
                        status: "queued" | "running" | "completed" | "failed" | "cancelled" | "reverted";
                        /** @description The rule versions the run applies, in order. */
                        rules: {
                            /** Format: uuid */
                            id: string;
                            version: number;
                            name?: string;
                        }[];
                        datasetIds: string[] | null;
                        from: number | null;
                        to: number | null;
                        /** @description Open origin transactions examined, of the total the rules look at. */
                        progress: {
                            examined: number;
                            total: number;
                        };
                        /** @description Per rule, in run order. */
                        counts: {
                            /** Format: uuid */
                            ruleId: string;
                            ruleVersion: number;
                            name: string;
                            matched: number;
                            suggested: number;
                            ambiguous: number;
                            classified: number;
                            /** @description Transactions or groups a search could not finish within its bounds; listed in the results of kind "bounds". */
                            boundsHit: number;
                            /** @description Candidate pairs (or groups) that satisfied every condition. */
                            candidates: number;
                            durationMilliseconds: number;
                        }[];
                        totals: {
                            matched: number;
                            suggested: number;
                            ambiguous: number;
                            classified: number;
                            boundsHit: number;
                            /** @description Open transactions the rules would have looked at but left alone, because they are dated in a closed (approved) period of a reconciliation of their dataset; reopen the period to match them. */
                            closedPeriodSkipped: number;
                        };
                        /** @description decideMilliseconds, applyMilliseconds, totalMilliseconds and the attempt. */
                        timings: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        /** @description When a dry run was committed. */
                        committedAt: string | null;
                        committedBy: string | null;
                        revertedAt: string | null;
                        revertedBy: string | null;
                        /** @description What the revert deleted and the groups it left, with why. */
                        revert: unknown | null;
                        error: ({
                            message: string;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    discardRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Discarded. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listRunResults: {
        parameters: {
            query: {
                /** @description matches, suggestions (outcome "suggest"), ambiguous (ties a person must decide), classified, bounds (searches stopped at their bounds), or unmatched. */
                kind: "matches" | "suggestions" | "ambiguous" | "classified" | "bounds" | "unmatched";
                /** @description Results per page; 100 by default. */
                limit?: number | string;
                cursor?: string;
                /** @description transactions: each result also carries the transactions it names (its own, its options', its runners-up and a group's counterpart) with their date, description, reference and amount. */
                include?: "transactions";
            };
            header?: never;
            path: {
                orgId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description In the order the run decided. */
                        results: ({
                            /** @description match, suggestion, ambiguous, classified, bounds or unmatched. */
                            kind: string;
                            /** @description With include=transactions: the transactions the result names, its own first. */
                            transactions?: {
                                /** Format: uuid */
                                id: string;
                                /** Format: uuid */
                                datasetId: string;
                                datasetName: string;
                                /** @description Epoch milliseconds; a booking date without a time is its midnight UTC. */
                                timestamp: number;
                                description: string | null;
                                reference: string | null;
                                type: string | null;
                                /** @description Signed, an exact decimal. */
                                amount: string | null;
                                currency: string | null;
                                reconciliationStatus: string;
                            }[];
                        } & {
                            [key: string]: unknown;
                        })[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    commitRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A run of matching rules (SPEC §8.3). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        mode: "dry-run" | "commit";
                        /** @description ingest: started by an ingest or import for rules with runOnIngest. */
                        trigger: "request" | "ingest";
                        status: "queued" | "running" | "completed" | "failed" | "cancelled" | "reverted";
                        /** @description The rule versions the run applies, in order. */
                        rules: {
                            /** Format: uuid */
                            id: string;
                            version: number;
                            name?: string;
                        }[];
                        datasetIds: string[] | null;
                        from: number | null;
                        to: number | null;
                        /** @description Open origin transactions examined, of the total the rules look at. */
                        progress: {
                            examined: number;
                            total: number;
                        };
                        /** @description Per rule, in run order. */
                        counts: {
                            /** Format: uuid */
                            ruleId: string;
                            ruleVersion: number;
                            name: string;
                            matched: number;
                            suggested: number;
                            ambiguous: number;
                            classified: number;
                            /** @description Transactions or groups a search could not finish within its bounds; listed in the results of kind "bounds". */
                            boundsHit: number;
                            /** @description Candidate pairs (or groups) that satisfied every condition. */
                            candidates: number;
                            durationMilliseconds: number;
                        }[];
                        totals: {
                            matched: number;
                            suggested: number;
                            ambiguous: number;
                            classified: number;
                            boundsHit: number;
                            /** @description Open transactions the rules would have looked at but left alone, because they are dated in a closed (approved) period of a reconciliation of their dataset; reopen the period to match them. */
                            closedPeriodSkipped: number;
                        };
                        /** @description decideMilliseconds, applyMilliseconds, totalMilliseconds and the attempt. */
                        timings: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        /** @description When a dry run was committed. */
                        committedAt: string | null;
                        committedBy: string | null;
                        revertedAt: string | null;
                        revertedBy: string | null;
                        /** @description What the revert deleted and the groups it left, with why. */
                        revert: unknown | null;
                        error: ({
                            message: string;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    revertRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why the run is reverted; kept in the audit trail. */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description A run of matching rules (SPEC §8.3). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        mode: "dry-run" | "commit";
                        /** @description ingest: started by an ingest or import for rules with runOnIngest. */
                        trigger: "request" | "ingest";
                        status: "queued" | "running" | "completed" | "failed" | "cancelled" | "reverted";
                        /** @description The rule versions the run applies, in order. */
                        rules: {
                            /** Format: uuid */
                            id: string;
                            version: number;
                            name?: string;
                        }[];
                        datasetIds: string[] | null;
                        from: number | null;
                        to: number | null;
                        /** @description Open origin transactions examined, of the total the rules look at. */
                        progress: {
                            examined: number;
                            total: number;
                        };
                        /** @description Per rule, in run order. */
                        counts: {
                            /** Format: uuid */
                            ruleId: string;
                            ruleVersion: number;
                            name: string;
                            matched: number;
                            suggested: number;
                            ambiguous: number;
                            classified: number;
                            /** @description Transactions or groups a search could not finish within its bounds; listed in the results of kind "bounds". */
                            boundsHit: number;
                            /** @description Candidate pairs (or groups) that satisfied every condition. */
                            candidates: number;
                            durationMilliseconds: number;
                        }[];
                        totals: {
                            matched: number;
                            suggested: number;
                            ambiguous: number;
                            classified: number;
                            boundsHit: number;
                            /** @description Open transactions the rules would have looked at but left alone, because they are dated in a closed (approved) period of a reconciliation of their dataset; reopen the period to match them. */
                            closedPeriodSkipped: number;
                        };
                        /** @description decideMilliseconds, applyMilliseconds, totalMilliseconds and the attempt. */
                        timings: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        /** @description When a dry run was committed. */
                        committedAt: string | null;
                        committedBy: string | null;
                        revertedAt: string | null;
                        revertedBy: string | null;
                        /** @description What the revert deleted and the groups it left, with why. */
                        revert: unknown | null;
                        error: ({
                            message: string;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    cancelRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A run of matching rules (SPEC §8.3). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        mode: "dry-run" | "commit";
                        /** @description ingest: started by an ingest or import for rules with runOnIngest. */
                        trigger: "request" | "ingest";
                        status: "queued" | "running" | "completed" | "failed" | "cancelled" | "reverted";
                        /** @description The rule versions the run applies, in order. */
                        rules: {
                            /** Format: uuid */
                            id: string;
                            version: number;
                            name?: string;
                        }[];
                        datasetIds: string[] | null;
                        from: number | null;
                        to: number | null;
                        /** @description Open origin transactions examined, of the total the rules look at. */
                        progress: {
                            examined: number;
                            total: number;
                        };
                        /** @description Per rule, in run order. */
                        counts: {
                            /** Format: uuid */
                            ruleId: string;
                            ruleVersion: number;
                            name: string;
                            matched: number;
                            suggested: number;
                            ambiguous: number;
                            classified: number;
                            /** @description Transactions or groups a search could not finish within its bounds; listed in the results of kind "bounds". */
                            boundsHit: number;
                            /** @description Candidate pairs (or groups) that satisfied every condition. */
                            candidates: number;
                            durationMilliseconds: number;
                        }[];
                        totals: {
                            matched: number;
                            suggested: number;
                            ambiguous: number;
                            classified: number;
                            boundsHit: number;
                            /** @description Open transactions the rules would have looked at but left alone, because they are dated in a closed (approved) period of a reconciliation of their dataset; reopen the period to match them. */
                            closedPeriodSkipped: number;
                        };
                        /** @description decideMilliseconds, applyMilliseconds, totalMilliseconds and the attempt. */
                        timings: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        /** @description When a dry run was committed. */
                        committedAt: string | null;
                        committedBy: string | null;
                        revertedAt: string | null;
                        revertedBy: string | null;
                        /** @description What the revert deleted and the groups it left, with why. */
                        revert: unknown | null;
                        error: ({
                            message: string;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listSuggestions: {
        parameters: {
            query?: {
                status?: "pending" | "confirmed" | "rejected" | "superseded";
                datasetId?: string;
                ruleId?: string;
                /** @description Suggestions per page; 100 by default. */
                limit?: number | string;
                cursor?: string;
            };
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Oldest first. */
                        suggestions: {
                            /** Format: uuid */
                            id: string;
                            /** @description superseded: a transaction of it was matched by a confirmed suggestion. */
                            status: "pending" | "confirmed" | "rejected" | "superseded";
                            /** @description suggest: the rule only proposes; ambiguous: several options fit equally well. */
                            reason: "suggest" | "ambiguous";
                            /** Format: uuid */
                            ruleId: string;
                            ruleVersion: number;
                            runId: string | null;
                            transactionIds: string[];
                            datasetIds: string[];
                            /** @description Best first. */
                            options: ({
                                /** @description The transactions of the option: origin ids > target ids. */
                                key: string;
                                links: {
                                    [key: string]: unknown;
                                }[];
                                adjustment: {
                                    amount: string;
                                    reason: string;
                                } | null;
                                score: string;
                                evidence: unknown;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** Format: date-time */
                            createdAt: string;
                            decidedAt: string | null;
                            decidedBy: string | null;
                            decisionNote: string | null;
                            /** @description The match group a confirmation made. */
                            groupId: string | null;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSuggestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                suggestionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @description superseded: a transaction of it was matched by a confirmed suggestion. */
                        status: "pending" | "confirmed" | "rejected" | "superseded";
                        /** @description suggest: the rule only proposes; ambiguous: several options fit equally well. */
                        reason: "suggest" | "ambiguous";
                        /** Format: uuid */
                        ruleId: string;
                        ruleVersion: number;
                        runId: string | null;
                        transactionIds: string[];
                        datasetIds: string[];
                        /** @description Best first. */
                        options: ({
                            /** @description The transactions of the option: origin ids > target ids. */
                            key: string;
                            links: {
                                [key: string]: unknown;
                            }[];
                            adjustment: {
                                amount: string;
                                reason: string;
                            } | null;
                            score: string;
                            evidence: unknown;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** Format: date-time */
                        createdAt: string;
                        decidedAt: string | null;
                        decidedBy: string | null;
                        decisionNote: string | null;
                        /** @description The match group a confirmation made. */
                        groupId: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    confirmSuggestion: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                suggestionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The index of the option to confirm; required when there are several. */
                    option?: number | string;
                    note?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @description superseded: a transaction of it was matched by a confirmed suggestion. */
                        status: "pending" | "confirmed" | "rejected" | "superseded";
                        /** @description suggest: the rule only proposes; ambiguous: several options fit equally well. */
                        reason: "suggest" | "ambiguous";
                        /** Format: uuid */
                        ruleId: string;
                        ruleVersion: number;
                        runId: string | null;
                        transactionIds: string[];
                        datasetIds: string[];
                        /** @description Best first. */
                        options: ({
                            /** @description The transactions of the option: origin ids > target ids. */
                            key: string;
                            links: {
                                [key: string]: unknown;
                            }[];
                            adjustment: {
                                amount: string;
                                reason: string;
                            } | null;
                            score: string;
                            evidence: unknown;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** Format: date-time */
                        createdAt: string;
                        decidedAt: string | null;
                        decidedBy: string | null;
                        decisionNote: string | null;
                        /** @description The match group a confirmation made. */
                        groupId: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    rejectSuggestion: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                suggestionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why; kept with the suggestion and in the audit trail. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @description superseded: a transaction of it was matched by a confirmed suggestion. */
                        status: "pending" | "confirmed" | "rejected" | "superseded";
                        /** @description suggest: the rule only proposes; ambiguous: several options fit equally well. */
                        reason: "suggest" | "ambiguous";
                        /** Format: uuid */
                        ruleId: string;
                        ruleVersion: number;
                        runId: string | null;
                        transactionIds: string[];
                        datasetIds: string[];
                        /** @description Best first. */
                        options: ({
                            /** @description The transactions of the option: origin ids > target ids. */
                            key: string;
                            links: {
                                [key: string]: unknown;
                            }[];
                            adjustment: {
                                amount: string;
                                reason: string;
                            } | null;
                            score: string;
                            evidence: unknown;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** Format: date-time */
                        createdAt: string;
                        decidedAt: string | null;
                        decidedBy: string | null;
                        decisionNote: string | null;
                        /** @description The match group a confirmation made. */
                        groupId: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    decideSuggestions: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ids: string[];
                    action: "confirm" | "reject";
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        suggestions: {
                            /** Format: uuid */
                            id: string;
                            /** @description superseded: a transaction of it was matched by a confirmed suggestion. */
                            status: "pending" | "confirmed" | "rejected" | "superseded";
                            /** @description suggest: the rule only proposes; ambiguous: several options fit equally well. */
                            reason: "suggest" | "ambiguous";
                            /** Format: uuid */
                            ruleId: string;
                            ruleVersion: number;
                            runId: string | null;
                            transactionIds: string[];
                            datasetIds: string[];
                            /** @description Best first. */
                            options: ({
                                /** @description The transactions of the option: origin ids > target ids. */
                                key: string;
                                links: {
                                    [key: string]: unknown;
                                }[];
                                adjustment: {
                                    amount: string;
                                    reason: string;
                                } | null;
                                score: string;
                                evidence: unknown;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** Format: date-time */
                            createdAt: string;
                            decidedAt: string | null;
                            decidedBy: string | null;
                            decisionNote: string | null;
                            /** @description The match group a confirmation made. */
                            groupId: string | null;
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listCandidates: {
        parameters: {
            query?: {
                /** @description Candidates; 10 by default. */
                limit?: number | string;
            };
            header?: never;
            path: {
                orgId: string;
                transactionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Best first. */
                        candidates: {
                            /** Format: uuid */
                            transactionId: string;
                            /** @description The side of the rule the candidate is on. */
                            side: "origin" | "target";
                            /** Format: uuid */
                            ruleId: string;
                            ruleVersion: number;
                            ruleName: string;
                            score: string;
                            /** @description Each condition with the two values compared and whether it held. */
                            evidence: unknown;
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listRules: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        enabled: boolean;
                        /** @description Lower runs first; ties run in order of creation. */
                        priority: number;
                        origin: {
                            datasetIds: string[];
                            /** @description SearchQuery objects as written, combined with AND; empty: every transaction of the datasets. */
                            audience: components["schemas"]["SearchQuery"][];
                        };
                        /** @description Null for a classification rule. */
                        target: {
                            datasetIds: string[];
                            /** @description SearchQuery objects as written, combined with AND; empty: every transaction of the datasets. */
                            audience: components["schemas"]["SearchQuery"][];
                        } | null;
                        /** @enum {string} */
                        cardinality: "1:1" | "1:N" | "N:1" | "N:M";
                        /** @description All must hold (at most 20). Kinds: {"type": "amount", "sign": "same", "opposite", "absolute", "tolerance": {"absolute": "0.50", "percent": "0.1"}} (origin total against target total, exact decimals; with both tolerances the larger applies; none: equal to the cent; one amount condition per rule); {"type": "date", "path": "timestamp", "min": "-P2D", "max": "P5D"} (target minus origin within the window: ISO 8601 durations in weeks, days, hours, minutes, seconds, or milliseconds; at most 366 days either way); {"type": "equals" | "contains", "origin": <value>, "target": <value>} (contains: the target's text contains the origin's); {"type": "similar", "origin": <value>, "target": <value>, "min": 0.8} (trigram similarity, 0 to 1); {"any": [<condition>...]} (at least one holds; at most 10 alternatives, nested at most 3 deep). a value is {"path": "<field>", "extract": "<regular expression with exactly one capturing group>", "normalize": ["casefold", "digits", "alnum", "trim-zeros"]} (extract and normalize optional; extract runs in PostgreSQL, must be linear-time: no backreferences, lookaround, named groups or possessive quantifiers; use \y, not \b, for a word boundary; a value whose extract finds nothing makes the condition fail) or a constant {"value": "<text>"}. Text conditions take string fields, and number or boolean fields by their JSON text (not in similar); money and date fields are compared with amount and date conditions. */
                        conditions: unknown[];
                        groupBy: {
                            origin: string[];
                            target: string[];
                        } | null;
                        maxGroupSize: number;
                        /** @description "match", "suggest" or {"status": "informative", "out of scope"}. */
                        outcome: unknown;
                        adjustment: {
                            /** @enum {string} */
                            reason: "fee" | "fx" | "rounding" | "write-off";
                        } | null;
                        /** @enum {string} */
                        currency: "same" | "any";
                        runOnIngest: boolean;
                        /** @description Grows with every change made by PATCH; matches record the version that made them. */
                        version: number;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /**
                         * Format: date-time
                         * @description The last change, a reorder included.
                         */
                        updatedAt: string;
                        updatedBy: string;
                    }[];
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createRule: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        /** @description A matching rule. Every member is checked by the service (unknown members too), and every problem is reported at once, each at its JSON pointer. POST /rules/validate reports the same problems without storing anything. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Required. What the rule matches, 1 to 200 characters. */
                    name?: unknown;
                    /** @description true (default) or false. A disabled rule runs only when a run names it. */
                    enabled?: unknown;
                    /** @description An integer from 0 to 1000000; lower runs first. Default: 10 after the organization's last rule. */
                    priority?: unknown;
                    /** @description Required. {"datasetIds": [<dataset id>...], "audience": [<SearchQuery>...]}: the datasets this side takes transactions from (1 to 20), narrowed by an audience in the SearchQuery grammar of POST /transactions (combined with AND; a path must exist in every dataset of the side). Only transactions with status none or partial take part. */
                    origin?: unknown;
                    /** @description Required unless the outcome is a classification (then absent or null). {"datasetIds": [<dataset id>...], "audience": [<SearchQuery>...]}: the datasets this side takes transactions from (1 to 20), narrowed by an audience in the SearchQuery grammar of POST /transactions (combined with AND; a path must exist in every dataset of the side). Only transactions with status none or partial take part. */
                    target?: unknown;
                    /** @description "1:1", "1:N", "N:1", "N:M" (default "1:1"): 1:N is one origin and one or more targets. */
                    cardinality?: unknown;
                    /** @description All must hold (at most 20). Kinds: {"type": "amount", "sign": "same", "opposite", "absolute", "tolerance": {"absolute": "0.50", "percent": "0.1"}} (origin total against target total, exact decimals; with both tolerances the larger applies; none: equal to the cent; one amount condition per rule); {"type": "date", "path": "timestamp", "min": "-P2D", "max": "P5D"} (target minus origin within the window: ISO 8601 durations in weeks, days, hours, minutes, seconds, or milliseconds; at most 366 days either way); {"type": "equals" | "contains", "origin": <value>, "target": <value>} (contains: the target's text contains the origin's); {"type": "similar", "origin": <value>, "target": <value>, "min": 0.8} (trigram similarity, 0 to 1); {"any": [<condition>...]} (at least one holds; at most 10 alternatives, nested at most 3 deep). a value is {"path": "<field>", "extract": "<regular expression with exactly one capturing group>", "normalize": ["casefold", "digits", "alnum", "trim-zeros"]} (extract and normalize optional; extract runs in PostgreSQL, must be linear-time: no backreferences, lookaround, named groups or possessive quantifiers; use \y, not \b, for a word boundary; a value whose extract finds nothing makes the condition fail) or a constant {"value": "<text>"}. Text conditions take string fields, and number or boolean fields by their JSON text (not in similar); money and date fields are compared with amount and date conditions. */
                    conditions?: unknown;
                    /** @description {"origin": ["<path>"...], "target": ["<path>"...]} (1 to 5 paths a side, the same number on both, compared pairwise): transactions with equal keys form a group. Not with cardinality "1:1". Null or absent: no grouping (1:N and N:1 then search for the set that fits). */
                    groupBy?: unknown;
                    /** @description The most transactions in a set the set search tries (1:N, N:1 and N:M without groupBy), 1 to 10 (default 5). Groups formed by groupBy are summed, not searched: this does not bound them (they take up to 100,000 transactions a side). */
                    maxGroupSize?: unknown;
                    /** @description "match" (default: make the match when the evidence is unambiguous), "suggest" (only propose it), or {"status": "informative", "out of scope"} (a classification rule: sets that status on the origin transactions that fit; no target, cardinality "1:1", conditions compare the origin with constants only). */
                    outcome?: unknown;
                    /** @description {"reason": "fee", "fx", "rounding", "write-off"} or null: when the amount condition holds within its tolerance but not exactly, the match records the difference as an adjustment. Needs an amount condition with a tolerance among the conditions. */
                    adjustment?: unknown;
                    /** @description "same", "any" (default "same"): whether transactions of different currencies may match. */
                    currency?: unknown;
                    /** @description true or false (default): run this rule on new transactions after every ingest and import. */
                    runOnIngest?: unknown;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The rule as stored, with shadowing warnings when there are any. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        enabled: boolean;
                        /** @description Lower runs first; ties run in order of creation. */
                        priority: number;
                        origin: {
                            datasetIds: string[];
                            /** @description SearchQuery objects as written, combined with AND; empty: every transaction of the datasets. */
                            audience: components["schemas"]["SearchQuery"][];
                        };
                        /** @description Null for a classification rule. */
                        target: {
                            datasetIds: string[];
                            /** @description SearchQuery objects as written, combined with AND; empty: every transaction of the datasets. */
                            audience: components["schemas"]["SearchQuery"][];
                        } | null;
                        /** @enum {string} */
                        cardinality: "1:1" | "1:N" | "N:1" | "N:M";
                        /** @description All must hold (at most 20). Kinds: {"type": "amount", "sign": "same", "opposite", "absolute", "tolerance": {"absolute": "0.50", "percent": "0.1"}} (origin total against target total, exact decimals; with both tolerances the larger applies; none: equal to the cent; one amount condition per rule); {"type": "date", "path": "timestamp", "min": "-P2D", "max": "P5D"} (target minus origin within the window: ISO 8601 durations in weeks, days, hours, minutes, seconds, or milliseconds; at most 366 days either way); {"type": "equals" | "contains", "origin": <value>, "target": <value>} (contains: the target's text contains the origin's); {"type": "similar", "origin": <value>, "target": <value>, "min": 0.8} (trigram similarity, 0 to 1); {"any": [<condition>...]} (at least one holds; at most 10 alternatives, nested at most 3 deep). a value is {"path": "<field>", "extract": "<regular expression with exactly one capturing group>", "normalize": ["casefold", "digits", "alnum", "trim-zeros"]} (extract and normalize optional; extract runs in PostgreSQL, must be linear-time: no backreferences, lookaround, named groups or possessive quantifiers; use \y, not \b, for a word boundary; a value whose extract finds nothing makes the condition fail) or a constant {"value": "<text>"}. Text conditions take string fields, and number or boolean fields by their JSON text (not in similar); money and date fields are compared with amount and date conditions. */
                        conditions: unknown[];
                        groupBy: {
                            origin: string[];
                            target: string[];
                        } | null;
                        maxGroupSize: number;
                        /** @description "match", "suggest" or {"status": "informative", "out of scope"}. */
                        outcome: unknown;
                        adjustment: {
                            /** @enum {string} */
                            reason: "fee" | "fx" | "rounding" | "write-off";
                        } | null;
                        /** @enum {string} */
                        currency: "same" | "any";
                        runOnIngest: boolean;
                        /** @description Grows with every change made by PATCH; matches record the version that made them. */
                        version: number;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /**
                         * Format: date-time
                         * @description The last change, a reorder included.
                         */
                        updatedAt: string;
                        updatedBy: string;
                        /** @description Present when rules of higher priority take everything this rule could match, or this rule does that to rules of lower priority. */
                        warnings?: {
                            /** @description JSON pointer of the member the warning is about. */
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    reorderRules: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Rule ids in the order they should run: they get the priorities 10, 20, 30... Rules not listed keep their priorities. */
                    ruleIds: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        enabled: boolean;
                        /** @description Lower runs first; ties run in order of creation. */
                        priority: number;
                        origin: {
                            datasetIds: string[];
                            /** @description SearchQuery objects as written, combined with AND; empty: every transaction of the datasets. */
                            audience: components["schemas"]["SearchQuery"][];
                        };
                        /** @description Null for a classification rule. */
                        target: {
                            datasetIds: string[];
                            /** @description SearchQuery objects as written, combined with AND; empty: every transaction of the datasets. */
                            audience: components["schemas"]["SearchQuery"][];
                        } | null;
                        /** @enum {string} */
                        cardinality: "1:1" | "1:N" | "N:1" | "N:M";
                        /** @description All must hold (at most 20). Kinds: {"type": "amount", "sign": "same", "opposite", "absolute", "tolerance": {"absolute": "0.50", "percent": "0.1"}} (origin total against target total, exact decimals; with both tolerances the larger applies; none: equal to the cent; one amount condition per rule); {"type": "date", "path": "timestamp", "min": "-P2D", "max": "P5D"} (target minus origin within the window: ISO 8601 durations in weeks, days, hours, minutes, seconds, or milliseconds; at most 366 days either way); {"type": "equals" | "contains", "origin": <value>, "target": <value>} (contains: the target's text contains the origin's); {"type": "similar", "origin": <value>, "target": <value>, "min": 0.8} (trigram similarity, 0 to 1); {"any": [<condition>...]} (at least one holds; at most 10 alternatives, nested at most 3 deep). a value is {"path": "<field>", "extract": "<regular expression with exactly one capturing group>", "normalize": ["casefold", "digits", "alnum", "trim-zeros"]} (extract and normalize optional; extract runs in PostgreSQL, must be linear-time: no backreferences, lookaround, named groups or possessive quantifiers; use \y, not \b, for a word boundary; a value whose extract finds nothing makes the condition fail) or a constant {"value": "<text>"}. Text conditions take string fields, and number or boolean fields by their JSON text (not in similar); money and date fields are compared with amount and date conditions. */
                        conditions: unknown[];
                        groupBy: {
                            origin: string[];
                            target: string[];
                        } | null;
                        maxGroupSize: number;
                        /** @description "match", "suggest" or {"status": "informative", "out of scope"}. */
                        outcome: unknown;
                        adjustment: {
                            /** @enum {string} */
                            reason: "fee" | "fx" | "rounding" | "write-off";
                        } | null;
                        /** @enum {string} */
                        currency: "same" | "any";
                        runOnIngest: boolean;
                        /** @description Grows with every change made by PATCH; matches record the version that made them. */
                        version: number;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /**
                         * Format: date-time
                         * @description The last change, a reorder included.
                         */
                        updatedAt: string;
                        updatedBy: string;
                    }[];
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    validateRule: {
        parameters: {
            query?: {
                /** @description Check the draft as a PATCH of this rule: merged onto it, and the rule is not compared with itself for shadowing. */
                ruleId?: string;
            };
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        /** @description A JSON merge patch (RFC 7396) of the rule: the members given replace the stored ones, objects merge member by member, arrays (conditions, datasetIds, audience) are replaced whole, and null removes a member (its default applies). The result is checked as a whole. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Required. What the rule matches, 1 to 200 characters. */
                    name?: unknown;
                    /** @description true (default) or false. A disabled rule runs only when a run names it. */
                    enabled?: unknown;
                    /** @description An integer from 0 to 1000000; lower runs first. Default: 10 after the organization's last rule. */
                    priority?: unknown;
                    /** @description Required. {"datasetIds": [<dataset id>...], "audience": [<SearchQuery>...]}: the datasets this side takes transactions from (1 to 20), narrowed by an audience in the SearchQuery grammar of POST /transactions (combined with AND; a path must exist in every dataset of the side). Only transactions with status none or partial take part. */
                    origin?: unknown;
                    /** @description Required unless the outcome is a classification (then absent or null). {"datasetIds": [<dataset id>...], "audience": [<SearchQuery>...]}: the datasets this side takes transactions from (1 to 20), narrowed by an audience in the SearchQuery grammar of POST /transactions (combined with AND; a path must exist in every dataset of the side). Only transactions with status none or partial take part. */
                    target?: unknown;
                    /** @description "1:1", "1:N", "N:1", "N:M" (default "1:1"): 1:N is one origin and one or more targets. */
                    cardinality?: unknown;
                    /** @description All must hold (at most 20). Kinds: {"type": "amount", "sign": "same", "opposite", "absolute", "tolerance": {"absolute": "0.50", "percent": "0.1"}} (origin total against target total, exact decimals; with both tolerances the larger applies; none: equal to the cent; one amount condition per rule); {"type": "date", "path": "timestamp", "min": "-P2D", "max": "P5D"} (target minus origin within the window: ISO 8601 durations in weeks, days, hours, minutes, seconds, or milliseconds; at most 366 days either way); {"type": "equals" | "contains", "origin": <value>, "target": <value>} (contains: the target's text contains the origin's); {"type": "similar", "origin": <value>, "target": <value>, "min": 0.8} (trigram similarity, 0 to 1); {"any": [<condition>...]} (at least one holds; at most 10 alternatives, nested at most 3 deep). a value is {"path": "<field>", "extract": "<regular expression with exactly one capturing group>", "normalize": ["casefold", "digits", "alnum", "trim-zeros"]} (extract and normalize optional; extract runs in PostgreSQL, must be linear-time: no backreferences, lookaround, named groups or possessive quantifiers; use \y, not \b, for a word boundary; a value whose extract finds nothing makes the condition fail) or a constant {"value": "<text>"}. Text conditions take string fields, and number or boolean fields by their JSON text (not in similar); money and date fields are compared with amount and date conditions. */
                    conditions?: unknown;
                    /** @description {"origin": ["<path>"...], "target": ["<path>"...]} (1 to 5 paths a side, the same number on both, compared pairwise): transactions with equal keys form a group. Not with cardinality "1:1". Null or absent: no grouping (1:N and N:1 then search for the set that fits). */
                    groupBy?: unknown;
                    /** @description The most transactions in a set the set search tries (1:N, N:1 and N:M without groupBy), 1 to 10 (default 5). Groups formed by groupBy are summed, not searched: this does not bound them (they take up to 100,000 transactions a side). */
                    maxGroupSize?: unknown;
                    /** @description "match" (default: make the match when the evidence is unambiguous), "suggest" (only propose it), or {"status": "informative", "out of scope"} (a classification rule: sets that status on the origin transactions that fit; no target, cardinality "1:1", conditions compare the origin with constants only). */
                    outcome?: unknown;
                    /** @description {"reason": "fee", "fx", "rounding", "write-off"} or null: when the amount condition holds within its tolerance but not exactly, the match records the difference as an adjustment. Needs an amount condition with a tolerance among the conditions. */
                    adjustment?: unknown;
                    /** @description "same", "any" (default "same"): whether transactions of different currencies may match. */
                    currency?: unknown;
                    /** @description true or false (default): run this rule on new transactions after every ingest and import. */
                    runOnIngest?: unknown;
                    /** @description Optional precondition: the version you read. When the rule is at another version, nothing changes and the answer is 409. */
                    version?: unknown;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether the draft has no errors; warnings do not make it invalid. */
                        valid: boolean;
                        problems: {
                            /** @description JSON pointer of the offending place in the draft, e.g. "/conditions/2/origin/extract". */
                            path: string;
                            /** @description What is wrong and how to fix it. */
                            message: string;
                            /** @enum {string} */
                            severity: "error" | "warning";
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        enabled: boolean;
                        /** @description Lower runs first; ties run in order of creation. */
                        priority: number;
                        origin: {
                            datasetIds: string[];
                            /** @description SearchQuery objects as written, combined with AND; empty: every transaction of the datasets. */
                            audience: components["schemas"]["SearchQuery"][];
                        };
                        /** @description Null for a classification rule. */
                        target: {
                            datasetIds: string[];
                            /** @description SearchQuery objects as written, combined with AND; empty: every transaction of the datasets. */
                            audience: components["schemas"]["SearchQuery"][];
                        } | null;
                        /** @enum {string} */
                        cardinality: "1:1" | "1:N" | "N:1" | "N:M";
                        /** @description All must hold (at most 20). Kinds: {"type": "amount", "sign": "same", "opposite", "absolute", "tolerance": {"absolute": "0.50", "percent": "0.1"}} (origin total against target total, exact decimals; with both tolerances the larger applies; none: equal to the cent; one amount condition per rule); {"type": "date", "path": "timestamp", "min": "-P2D", "max": "P5D"} (target minus origin within the window: ISO 8601 durations in weeks, days, hours, minutes, seconds, or milliseconds; at most 366 days either way); {"type": "equals" | "contains", "origin": <value>, "target": <value>} (contains: the target's text contains the origin's); {"type": "similar", "origin": <value>, "target": <value>, "min": 0.8} (trigram similarity, 0 to 1); {"any": [<condition>...]} (at least one holds; at most 10 alternatives, nested at most 3 deep). a value is {"path": "<field>", "extract": "<regular expression with exactly one capturing group>", "normalize": ["casefold", "digits", "alnum", "trim-zeros"]} (extract and normalize optional; extract runs in PostgreSQL, must be linear-time: no backreferences, lookaround, named groups or possessive quantifiers; use \y, not \b, for a word boundary; a value whose extract finds nothing makes the condition fail) or a constant {"value": "<text>"}. Text conditions take string fields, and number or boolean fields by their JSON text (not in similar); money and date fields are compared with amount and date conditions. */
                        conditions: unknown[];
                        groupBy: {
                            origin: string[];
                            target: string[];
                        } | null;
                        maxGroupSize: number;
                        /** @description "match", "suggest" or {"status": "informative", "out of scope"}. */
                        outcome: unknown;
                        adjustment: {
                            /** @enum {string} */
                            reason: "fee" | "fx" | "rounding" | "write-off";
                        } | null;
                        /** @enum {string} */
                        currency: "same" | "any";
                        runOnIngest: boolean;
                        /** @description Grows with every change made by PATCH; matches record the version that made them. */
                        version: number;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /**
                         * Format: date-time
                         * @description The last change, a reorder included.
                         */
                        updatedAt: string;
                        updatedBy: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteRule: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateRule: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                ruleId: string;
            };
            cookie?: never;
        };
        /** @description A JSON merge patch (RFC 7396) of the rule: the members given replace the stored ones, objects merge member by member, arrays (conditions, datasetIds, audience) are replaced whole, and null removes a member (its default applies). The result is checked as a whole. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Required. What the rule matches, 1 to 200 characters. */
                    name?: unknown;
                    /** @description true (default) or false. A disabled rule runs only when a run names it. */
                    enabled?: unknown;
                    /** @description An integer from 0 to 1000000; lower runs first. Default: 10 after the organization's last rule. */
                    priority?: unknown;
                    /** @description Required. {"datasetIds": [<dataset id>...], "audience": [<SearchQuery>...]}: the datasets this side takes transactions from (1 to 20), narrowed by an audience in the SearchQuery grammar of POST /transactions (combined with AND; a path must exist in every dataset of the side). Only transactions with status none or partial take part. */
                    origin?: unknown;
                    /** @description Required unless the outcome is a classification (then absent or null). {"datasetIds": [<dataset id>...], "audience": [<SearchQuery>...]}: the datasets this side takes transactions from (1 to 20), narrowed by an audience in the SearchQuery grammar of POST /transactions (combined with AND; a path must exist in every dataset of the side). Only transactions with status none or partial take part. */
                    target?: unknown;
                    /** @description "1:1", "1:N", "N:1", "N:M" (default "1:1"): 1:N is one origin and one or more targets. */
                    cardinality?: unknown;
                    /** @description All must hold (at most 20). Kinds: {"type": "amount", "sign": "same", "opposite", "absolute", "tolerance": {"absolute": "0.50", "percent": "0.1"}} (origin total against target total, exact decimals; with both tolerances the larger applies; none: equal to the cent; one amount condition per rule); {"type": "date", "path": "timestamp", "min": "-P2D", "max": "P5D"} (target minus origin within the window: ISO 8601 durations in weeks, days, hours, minutes, seconds, or milliseconds; at most 366 days either way); {"type": "equals" | "contains", "origin": <value>, "target": <value>} (contains: the target's text contains the origin's); {"type": "similar", "origin": <value>, "target": <value>, "min": 0.8} (trigram similarity, 0 to 1); {"any": [<condition>...]} (at least one holds; at most 10 alternatives, nested at most 3 deep). a value is {"path": "<field>", "extract": "<regular expression with exactly one capturing group>", "normalize": ["casefold", "digits", "alnum", "trim-zeros"]} (extract and normalize optional; extract runs in PostgreSQL, must be linear-time: no backreferences, lookaround, named groups or possessive quantifiers; use \y, not \b, for a word boundary; a value whose extract finds nothing makes the condition fail) or a constant {"value": "<text>"}. Text conditions take string fields, and number or boolean fields by their JSON text (not in similar); money and date fields are compared with amount and date conditions. */
                    conditions?: unknown;
                    /** @description {"origin": ["<path>"...], "target": ["<path>"...]} (1 to 5 paths a side, the same number on both, compared pairwise): transactions with equal keys form a group. Not with cardinality "1:1". Null or absent: no grouping (1:N and N:1 then search for the set that fits). */
                    groupBy?: unknown;
                    /** @description The most transactions in a set the set search tries (1:N, N:1 and N:M without groupBy), 1 to 10 (default 5). Groups formed by groupBy are summed, not searched: this does not bound them (they take up to 100,000 transactions a side). */
                    maxGroupSize?: unknown;
                    /** @description "match" (default: make the match when the evidence is unambiguous), "suggest" (only propose it), or {"status": "informative", "out of scope"} (a classification rule: sets that status on the origin transactions that fit; no target, cardinality "1:1", conditions compare the origin with constants only). */
                    outcome?: unknown;
                    /** @description {"reason": "fee", "fx", "rounding", "write-off"} or null: when the amount condition holds within its tolerance but not exactly, the match records the difference as an adjustment. Needs an amount condition with a tolerance among the conditions. */
                    adjustment?: unknown;
                    /** @description "same", "any" (default "same"): whether transactions of different currencies may match. */
                    currency?: unknown;
                    /** @description true or false (default): run this rule on new transactions after every ingest and import. */
                    runOnIngest?: unknown;
                    /** @description Optional precondition: the version you read. When the rule is at another version, nothing changes and the answer is 409. */
                    version?: unknown;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The rule as stored, with shadowing warnings when there are any. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        enabled: boolean;
                        /** @description Lower runs first; ties run in order of creation. */
                        priority: number;
                        origin: {
                            datasetIds: string[];
                            /** @description SearchQuery objects as written, combined with AND; empty: every transaction of the datasets. */
                            audience: components["schemas"]["SearchQuery"][];
                        };
                        /** @description Null for a classification rule. */
                        target: {
                            datasetIds: string[];
                            /** @description SearchQuery objects as written, combined with AND; empty: every transaction of the datasets. */
                            audience: components["schemas"]["SearchQuery"][];
                        } | null;
                        /** @enum {string} */
                        cardinality: "1:1" | "1:N" | "N:1" | "N:M";
                        /** @description All must hold (at most 20). Kinds: {"type": "amount", "sign": "same", "opposite", "absolute", "tolerance": {"absolute": "0.50", "percent": "0.1"}} (origin total against target total, exact decimals; with both tolerances the larger applies; none: equal to the cent; one amount condition per rule); {"type": "date", "path": "timestamp", "min": "-P2D", "max": "P5D"} (target minus origin within the window: ISO 8601 durations in weeks, days, hours, minutes, seconds, or milliseconds; at most 366 days either way); {"type": "equals" | "contains", "origin": <value>, "target": <value>} (contains: the target's text contains the origin's); {"type": "similar", "origin": <value>, "target": <value>, "min": 0.8} (trigram similarity, 0 to 1); {"any": [<condition>...]} (at least one holds; at most 10 alternatives, nested at most 3 deep). a value is {"path": "<field>", "extract": "<regular expression with exactly one capturing group>", "normalize": ["casefold", "digits", "alnum", "trim-zeros"]} (extract and normalize optional; extract runs in PostgreSQL, must be linear-time: no backreferences, lookaround, named groups or possessive quantifiers; use \y, not \b, for a word boundary; a value whose extract finds nothing makes the condition fail) or a constant {"value": "<text>"}. Text conditions take string fields, and number or boolean fields by their JSON text (not in similar); money and date fields are compared with amount and date conditions. */
                        conditions: unknown[];
                        groupBy: {
                            origin: string[];
                            target: string[];
                        } | null;
                        maxGroupSize: number;
                        /** @description "match", "suggest" or {"status": "informative", "out of scope"}. */
                        outcome: unknown;
                        adjustment: {
                            /** @enum {string} */
                            reason: "fee" | "fx" | "rounding" | "write-off";
                        } | null;
                        /** @enum {string} */
                        currency: "same" | "any";
                        runOnIngest: boolean;
                        /** @description Grows with every change made by PATCH; matches record the version that made them. */
                        version: number;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /**
                         * Format: date-time
                         * @description The last change, a reorder included.
                         */
                        updatedAt: string;
                        updatedBy: string;
                        /** @description Present when rules of higher priority take everything this rule could match, or this rule does that to rules of lower priority. */
                        warnings?: {
                            /** @description JSON pointer of the member the warning is about. */
                            path: string;
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listRuleVersions: {
        parameters: {
            query?: {
                /** @description Versions per page, 1..1000; 100 by default. */
                limit?: number | string;
                /** @description Only versions below this one: pass the last version of a page to read the next. */
                beforeVersion?: number | string;
            };
            header?: never;
            path: {
                orgId: string;
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        ruleId: string;
                        currentVersion: number;
                        /** @description When the rule was deleted; its versions stay readable, since matches name them. */
                        deletedAt: string | null;
                        /** @description Newest first. */
                        versions: {
                            version: number;
                            /** Format: date-time */
                            createdAt: string;
                            createdBy: string;
                            /** @description The rule's body as this version had it. */
                            rule: {
                                name: string;
                                enabled: boolean;
                                /** @description Lower runs first; ties run in order of creation. */
                                priority: number;
                                origin: {
                                    datasetIds: string[];
                                    /** @description SearchQuery objects as written, combined with AND; empty: every transaction of the datasets. */
                                    audience: components["schemas"]["SearchQuery"][];
                                };
                                /** @description Null for a classification rule. */
                                target: {
                                    datasetIds: string[];
                                    /** @description SearchQuery objects as written, combined with AND; empty: every transaction of the datasets. */
                                    audience: components["schemas"]["SearchQuery"][];
                                } | null;
                                /** @enum {string} */
                                cardinality: "1:1" | "1:N" | "N:1" | "N:M";
                                /** @description All must hold (at most 20). Kinds: {"type": "amount", "sign": "same", "opposite", "absolute", "tolerance": {"absolute": "0.50", "percent": "0.1"}} (origin total against target total, exact decimals; with both tolerances the larger applies; none: equal to the cent; one amount condition per rule); {"type": "date", "path": "timestamp", "min": "-P2D", "max": "P5D"} (target minus origin within the window: ISO 8601 durations in weeks, days, hours, minutes, seconds, or milliseconds; at most 366 days either way); {"type": "equals" | "contains", "origin": <value>, "target": <value>} (contains: the target's text contains the origin's); {"type": "similar", "origin": <value>, "target": <value>, "min": 0.8} (trigram similarity, 0 to 1); {"any": [<condition>...]} (at least one holds; at most 10 alternatives, nested at most 3 deep). a value is {"path": "<field>", "extract": "<regular expression with exactly one capturing group>", "normalize": ["casefold", "digits", "alnum", "trim-zeros"]} (extract and normalize optional; extract runs in PostgreSQL, must be linear-time: no backreferences, lookaround, named groups or possessive quantifiers; use \y, not \b, for a word boundary; a value whose extract finds nothing makes the condition fail) or a constant {"value": "<text>"}. Text conditions take string fields, and number or boolean fields by their JSON text (not in similar); money and date fields are compared with amount and date conditions. */
                                conditions: unknown[];
                                groupBy: {
                                    origin: string[];
                                    target: string[];
                                } | null;
                                maxGroupSize: number;
                                /** @description "match", "suggest" or {"status": "informative", "out of scope"}. */
                                outcome: unknown;
                                adjustment: {
                                    /** @enum {string} */
                                    reason: "fee" | "fx" | "rounding" | "write-off";
                                } | null;
                                /** @enum {string} */
                                currency: "same" | "any";
                                runOnIngest: boolean;
                            };
                        }[];
                        /** @description Whether older versions follow; pass the last version as beforeVersion to read them. */
                        hasMore: boolean;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        users: {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            /** @description Administrator: everything, including users and credentials; Full member: read and write data; View-only: read. */
                            role: "Administrator" | "Full member" | "View-only" | "Reviewer";
                            /** @description False once deactivated: the user cannot sign in and their sessions have ended. */
                            active: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            lastLoginAt: string | null;
                        }[];
                        invitations: {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            /** @description Administrator: everything, including users and credentials; Full member: read and write data; View-only: read. */
                            role: "Administrator" | "Full member" | "View-only" | "Reviewer";
                            /** Format: date-time */
                            createdAt: string;
                            createdBy: string;
                            /** Format: date-time */
                            expiresAt: string;
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    inviteUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    /** @description Administrator: everything, including users and credentials; Full member: read and write data; View-only: read. */
                    role: "Administrator" | "Full member" | "View-only" | "Reviewer";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        invitation: {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            /** @description Administrator: everything, including users and credentials; Full member: read and write data; View-only: read. */
                            role: "Administrator" | "Full member" | "View-only" | "Reviewer";
                            /** Format: date-time */
                            createdAt: string;
                            createdBy: string;
                            /** Format: date-time */
                            expiresAt: string;
                        };
                        /** @description Shown in this answer only. */
                        invitationUrl: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Administrator: everything, including users and credentials; Full member: read and write data; View-only: read. */
                    role?: "Administrator" | "Full member" | "View-only" | "Reviewer";
                    /** @description false deactivates the user (their sessions end at once); true lets them sign in again. */
                    active?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        email: string;
                        /** @description Administrator: everything, including users and credentials; Full member: read and write data; View-only: read. */
                        role: "Administrator" | "Full member" | "View-only" | "Reviewer";
                        /** @description False once deactivated: the user cannot sign in and their sessions have ended. */
                        active: boolean;
                        /** Format: date-time */
                        createdAt: string;
                        lastLoginAt: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDatasetSummary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                datasetId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        datasetId: string;
                        /** @description Oldest first, the last 24 months that have transactions. */
                        months: {
                            /** @description YYYY-MM of the transactions' time (UTC). */
                            month: string;
                            count: number;
                            /** @description Transactions with status full. */
                            reconciledCount: number;
                            /** @description Informative and out of scope: left out of the shares. */
                            excludedCount: number;
                            /** @description A decimal amount, absolute values summed (the size of the work, money in and out alike). */
                            amount: string;
                            /** @description A decimal amount, absolute values summed (the size of the work, money in and out alike). */
                            reconciledAmount: string;
                        }[];
                        /** @description Open transactions (none, partial) and what is left to match of them, by age. */
                        openByAge: {
                            /** @description Days since the transaction: 0-7, 8-30, 31-90, >90. */
                            bucket: string;
                            count: number;
                            /** @description What is left open, signed (money out negative) and summed: the net open amount. */
                            amount: string;
                        }[];
                        /** @description Matches made by each rule with this dataset on either side. */
                        ruleHits: {
                            /** Format: uuid */
                            ruleId: string;
                            name: string | null;
                            matches: number;
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDatasetOverview: {
        parameters: {
            query?: {
                /** @description The first month of the period, YYYY-MM; by default eleven months before the last. */
                from?: string;
                /** @description The last month of the period, YYYY-MM; by default the current month (UTC). */
                to?: string;
            };
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The first month of the period, YYYY-MM. */
                        from: string;
                        /** @description The last month of the period, YYYY-MM. */
                        to: string;
                        /** @description Every month of the period, YYYY-MM, oldest first, months without transactions included. */
                        months: string[];
                        /** @description Every bank dataset: one with an account, or with bank statements imported. */
                        datasets: {
                            /** Format: uuid */
                            datasetId: string;
                            name: string;
                            sourceName: string;
                            accountId: string | null;
                            /** @description The dataset's currency, when known. */
                            currency: string | null;
                            /** @description The period's transactions. */
                            count: number;
                            /** @description Of them, with status full. */
                            reconciledCount: number;
                            /** @description Of them, informative or out of scope: left out of the reconciled share. */
                            excludedCount: number;
                            /** @description Per currency; empty when nothing of the period is open. */
                            open: {
                                currency: string | null;
                                /** @description Open transactions (none, partial) of the period in this currency. */
                                count: number;
                                /** @description What is left to match of the open money in (positive amounts): a sum, zero or positive. */
                                moneyIn: string;
                                /** @description What is left to match of the open money out (negative amounts): a sum, zero or negative. */
                                moneyOut: string;
                                /** @description moneyIn + moneyOut: the signed sum of what is left open, as the statement sums its entries. */
                                net: string;
                            }[];
                            /** @description The months of the period that have transactions, oldest first. */
                            months: {
                                month: string;
                                count: number;
                                reconciledCount: number;
                                excludedCount: number;
                            }[];
                            /** @description The closing balance of the latest statement dated on or before the period's last day. */
                            closingBalance: {
                                /** @description Signed: a debit balance is negative. */
                                amount: string;
                                currency: string | null;
                                /** @description The calendar date of the balance as the bank wrote it, YYYY-MM-DD. */
                                date: string;
                            } | null;
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Only events of these types, comma-separated: transaction.status_changed, match_group.created, match_group.deleted, suggestion.created, run.completed, run.failed, run.reverted, import.completed, import.failed, import.undone, reconciliation.created, reconciliation.updated, close_period.prepared, close_period.approved, close_period.reopened, exception.assigned, exception.updated, exception.commented, exception.resolved, exception.reopened, exception.overdue, journal_entry.proposed, connection.failed, pickup.completed. */
                type?: string;
                /** @description The nextCursor of an earlier answer: continue after its last event. */
                cursor?: string;
                /** @description Events per page, 1..1000; 100 by default. */
                limit?: number | string;
            };
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description In the order they were committed. */
                        events: {
                            /** Format: uuid */
                            id: string;
                            /** @description One of transaction.status_changed, match_group.created, match_group.deleted, suggestion.created, run.completed, run.failed, run.reverted, import.completed, import.failed, import.undone, reconciliation.created, reconciliation.updated, close_period.prepared, close_period.approved, close_period.reopened, exception.assigned, exception.updated, exception.commented, exception.resolved, exception.reopened, exception.overdue, journal_entry.proposed, connection.failed, pickup.completed. */
                            type: string;
                            /** Format: date-time */
                            occurredAt: string;
                            /** @description What changed. transaction.status_changed: transactionId, datasetId, externalId, before and after ({reconciliationStatus, allocatedAmount, matchCount}); match_group.created / deleted: matchGroupId, method, ruleId, runId; suggestion.created: suggestionId, reason, ruleId, runId, transactionIds; run.*: runId, mode, trigger, status, error, and for run.completed examined and totals ({matched, suggested, ambiguous, classified, boundsHit, closedPeriodSkipped}); import.*: importId, datasetId, fileName, format, status, rowsRead, inserted, duplicates, error, runId (the run it queued, or null). Amounts are decimal strings. */
                            data: {
                                [key: string]: unknown;
                            };
                        }[];
                        /** @description Pass as cursor to continue after the last event; also given on the last page, so that a consumer keeps its place and asks again later. */
                        nextCursor: string | null;
                        /** @description Whether more events are ready beyond this page. */
                        hasMore: boolean;
                        /** @description Whether events after the cursor (without a cursor: at the start of the feed) were removed before they were read: events are kept EVENT_RETENTION_DAYS days (30 by default). The page goes on from the oldest event kept; what was removed can no longer be read. */
                        eventsRemovedAfterCursor: boolean;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Oldest first; at most 50. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        url: string;
                        description: string;
                        /** @description Empty: every type. */
                        eventTypes: string[];
                        enabled: boolean;
                        /** @description requested: turned off by a person; failing: turned off after every delivery failed for the give-up period (3 days by default). */
                        disabledReason: "requested" | "failing" | null;
                        disabledAt: string | null;
                        /** @description Since when every attempt has failed; null after a success. */
                        failingSince: string | null;
                        /** @description During a rotation, until when the previous secret signs too. */
                        previousSecretExpiresAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    }[];
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Where deliveries are POSTed. In production mode an https:// URL whose host resolves only to public addresses (checked now and at every delivery); WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server also allows http:// and private addresses, for development. */
                    url: string;
                    /** @description What the endpoint is for, e.g. "ERP sync". */
                    description?: string;
                    /** @description The event types to send; empty (the default) sends every type. */
                    eventTypes?: ("transaction.status_changed" | "match_group.created" | "match_group.deleted" | "suggestion.created" | "run.completed" | "run.failed" | "run.reverted" | "import.completed" | "import.failed" | "import.undone" | "reconciliation.created" | "reconciliation.updated" | "close_period.prepared" | "close_period.approved" | "close_period.reopened" | "exception.assigned" | "exception.updated" | "exception.commented" | "exception.resolved" | "exception.reopened" | "exception.overdue" | "journal_entry.proposed" | "connection.failed" | "pickup.completed")[];
                    /** @description true by default. */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        url: string;
                        description: string;
                        /** @description Empty: every type. */
                        eventTypes: string[];
                        enabled: boolean;
                        /** @description requested: turned off by a person; failing: turned off after every delivery failed for the give-up period (3 days by default). */
                        disabledReason: "requested" | "failing" | null;
                        disabledAt: string | null;
                        /** @description Since when every attempt has failed; null after a success. */
                        failingSince: string | null;
                        /** @description During a rotation, until when the previous secret signs too. */
                        previousSecretExpiresAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    } & {
                        /** @description The signing secret (whsec_…), shown in this answer only: give it to your receiver, which verifies each webhook-signature with it. */
                        secret: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        url: string;
                        description: string;
                        /** @description Empty: every type. */
                        eventTypes: string[];
                        enabled: boolean;
                        /** @description requested: turned off by a person; failing: turned off after every delivery failed for the give-up period (3 days by default). */
                        disabledReason: "requested" | "failing" | null;
                        disabledAt: string | null;
                        /** @description Since when every attempt has failed; null after a success. */
                        failingSince: string | null;
                        /** @description During a rotation, until when the previous secret signs too. */
                        previousSecretExpiresAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Where deliveries are POSTed. In production mode an https:// URL whose host resolves only to public addresses (checked now and at every delivery); WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server also allows http:// and private addresses, for development. */
                    url?: string;
                    /** @description What the endpoint is for, e.g. "ERP sync". */
                    description?: string;
                    /** @description The event types to send; empty (the default) sends every type. */
                    eventTypes?: ("transaction.status_changed" | "match_group.created" | "match_group.deleted" | "suggestion.created" | "run.completed" | "run.failed" | "run.reverted" | "import.completed" | "import.failed" | "import.undone" | "reconciliation.created" | "reconciliation.updated" | "close_period.prepared" | "close_period.approved" | "close_period.reopened" | "exception.assigned" | "exception.updated" | "exception.commented" | "exception.resolved" | "exception.reopened" | "exception.overdue" | "journal_entry.proposed" | "connection.failed" | "pickup.completed")[];
                    /** @description false stops deliveries; true starts them again (and clears the failure record of an endpoint disabled for failing). */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        url: string;
                        description: string;
                        /** @description Empty: every type. */
                        eventTypes: string[];
                        enabled: boolean;
                        /** @description requested: turned off by a person; failing: turned off after every delivery failed for the give-up period (3 days by default). */
                        disabledReason: "requested" | "failing" | null;
                        disabledAt: string | null;
                        /** @description Since when every attempt has failed; null after a success. */
                        failingSince: string | null;
                        /** @description During a rotation, until when the previous secret signs too. */
                        previousSecretExpiresAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        endpointId: string;
                        /** @description The new signing secret, shown in this answer only. */
                        secret: string;
                        /**
                         * Format: date-time
                         * @description Until then (24 hours) deliveries carry signatures of both secrets, so the receiver can switch at any moment.
                         */
                        previousSecretExpiresAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    sendWebhookTest: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        endpointId: string;
                        /**
                         * Format: uuid
                         * @description The webhook-id header: the event id (or a test message id), the same on every attempt.
                         */
                        messageId: string;
                        eventType: string;
                        status: "pending" | "succeeded" | "failed";
                        attempts: number;
                        lastAttemptAt: string | null;
                        /** @description The HTTP status of the last answer; null when none came (timeout, refused connection). */
                        lastResponseStatus: number | null;
                        lastDurationMilliseconds: number | null;
                        lastError: string | null;
                        /** @description When a pending delivery is tried next. */
                        nextAttemptAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        deliveredAt: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                status?: "pending" | "succeeded" | "failed";
                /** @description The nextCursor of an earlier answer. */
                cursor?: string;
                /** @description Deliveries per page, 1..200; 50 by default. */
                limit?: number | string;
            };
            header?: never;
            path: {
                orgId: string;
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        deliveries: {
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            endpointId: string;
                            /**
                             * Format: uuid
                             * @description The webhook-id header: the event id (or a test message id), the same on every attempt.
                             */
                            messageId: string;
                            eventType: string;
                            status: "pending" | "succeeded" | "failed";
                            attempts: number;
                            lastAttemptAt: string | null;
                            /** @description The HTTP status of the last answer; null when none came (timeout, refused connection). */
                            lastResponseStatus: number | null;
                            lastDurationMilliseconds: number | null;
                            lastError: string | null;
                            /** @description When a pending delivery is tried next. */
                            nextAttemptAt: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            deliveredAt: string | null;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                endpointId: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        endpointId: string;
                        /**
                         * Format: uuid
                         * @description The webhook-id header: the event id (or a test message id), the same on every attempt.
                         */
                        messageId: string;
                        eventType: string;
                        status: "pending" | "succeeded" | "failed";
                        attempts: number;
                        lastAttemptAt: string | null;
                        /** @description The HTTP status of the last answer; null when none came (timeout, refused connection). */
                        lastResponseStatus: number | null;
                        lastDurationMilliseconds: number | null;
                        lastError: string | null;
                        /** @description When a pending delivery is tried next. */
                        nextAttemptAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        deliveredAt: string | null;
                    } & {
                        /** @description The attempts, oldest first (the last 100). */
                        attemptList: {
                            /** Format: date-time */
                            attemptedAt: string;
                            responseStatus: number | null;
                            durationMilliseconds: number;
                            error: string | null;
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                endpointId: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        endpointId: string;
                        /**
                         * Format: uuid
                         * @description The webhook-id header: the event id (or a test message id), the same on every attempt.
                         */
                        messageId: string;
                        eventType: string;
                        status: "pending" | "succeeded" | "failed";
                        attempts: number;
                        lastAttemptAt: string | null;
                        /** @description The HTTP status of the last answer; null when none came (timeout, refused connection). */
                        lastResponseStatus: number | null;
                        lastDurationMilliseconds: number | null;
                        lastError: string | null;
                        /** @description When a pending delivery is tried next. */
                        nextAttemptAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        deliveredAt: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listReconciliations: {
        parameters: {
            query?: {
                /** @description Reconciliations per page; 50 by default. */
                limit?: number | string;
                cursor?: string;
                /** @description true lists archived reconciliations too. */
                includeArchived?: "true" | "false";
            };
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        reconciliations: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            currency: string;
                            bankDatasetIds: string[];
                            ledgerDatasetIds: string[];
                            /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                            ledgerOpeningBalance: string;
                            /** @description A calendar date, YYYY-MM-DD. */
                            ledgerOpeningDate: string;
                            periodMonths: number;
                            ruleIds: string[];
                            /** @description The ledger account each adjustment reason posts to, e.g. {"fee": "6500"}. */
                            adjustmentAccounts: {
                                fee?: string;
                                fx?: string;
                                rounding?: string;
                                "write-off"?: string;
                            };
                            cashAccount: string | null;
                            archived: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            createdBy: string;
                            /** Format: date-time */
                            updatedAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createReconciliation: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description E.g. "Operating account EUR ↔ GL 1200"; unique in the organization. */
                    name: string;
                    /** @description ISO 4217 code; every dataset that declares a currency must declare this one. */
                    currency: string;
                    /** @description The bank datasets; each belongs to this reconciliation only, on this side only. */
                    bankDatasetIds: string[];
                    /** @description The ledger datasets; each belongs to this reconciliation only, on this side only. */
                    ledgerDatasetIds: string[];
                    /** @description The ledger's balance at the start of ledgerOpeningDate, a decimal (preferably as a string). 0 by default. */
                    ledgerOpeningBalance?: string | number;
                    /** @description The date of the opening balance, YYYY-MM-DD; ledger rows on and after it add to it. The first period begins with its month. */
                    ledgerOpeningDate: string;
                    /** @description The length of a period in calendar months; 1 (a month) by default. */
                    periodMonths?: number;
                    /** @description The rules that serve the reconciliation. */
                    ruleIds?: string[];
                    /** @description The ledger account each adjustment reason posts to, e.g. {"fee": "6500"}. */
                    adjustmentAccounts?: {
                        fee?: string;
                        fx?: string;
                        rounding?: string;
                        "write-off"?: string;
                    };
                    /** @description The bank's own account in the ledger (e.g. "1200"), which the journal entries of adjustments are posted against; null for none. Not set by default. */
                    cashAccount?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        currency: string;
                        bankDatasetIds: string[];
                        ledgerDatasetIds: string[];
                        /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                        ledgerOpeningBalance: string;
                        /** @description A calendar date, YYYY-MM-DD. */
                        ledgerOpeningDate: string;
                        periodMonths: number;
                        ruleIds: string[];
                        /** @description The ledger account each adjustment reason posts to, e.g. {"fee": "6500"}. */
                        adjustmentAccounts: {
                            fee?: string;
                            fx?: string;
                            rounding?: string;
                            "write-off"?: string;
                        };
                        cashAccount: string | null;
                        archived: boolean;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReconciliation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                reconciliationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        currency: string;
                        bankDatasetIds: string[];
                        ledgerDatasetIds: string[];
                        /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                        ledgerOpeningBalance: string;
                        /** @description A calendar date, YYYY-MM-DD. */
                        ledgerOpeningDate: string;
                        periodMonths: number;
                        ruleIds: string[];
                        /** @description The ledger account each adjustment reason posts to, e.g. {"fee": "6500"}. */
                        adjustmentAccounts: {
                            fee?: string;
                            fx?: string;
                            rounding?: string;
                            "write-off"?: string;
                        };
                        cashAccount: string | null;
                        archived: boolean;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateReconciliation: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                reconciliationId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description E.g. "Operating account EUR ↔ GL 1200"; unique in the organization. */
                    name?: string;
                    /** @description ISO 4217 code; every dataset that declares a currency must declare this one. */
                    currency?: string;
                    /** @description The bank datasets; each belongs to this reconciliation only, on this side only. */
                    bankDatasetIds?: string[];
                    /** @description The ledger datasets; each belongs to this reconciliation only, on this side only. */
                    ledgerDatasetIds?: string[];
                    /** @description The ledger's balance at the start of ledgerOpeningDate, a decimal (preferably as a string). 0 by default. */
                    ledgerOpeningBalance?: string | number;
                    /** @description The date of the opening balance, YYYY-MM-DD; ledger rows on and after it add to it. The first period begins with its month. */
                    ledgerOpeningDate?: string;
                    /** @description The length of a period in calendar months; 1 (a month) by default. */
                    periodMonths?: number;
                    /** @description The rules that serve the reconciliation. */
                    ruleIds?: string[];
                    /** @description The ledger account each adjustment reason posts to, e.g. {"fee": "6500"}. */
                    adjustmentAccounts?: {
                        fee?: string;
                        fx?: string;
                        rounding?: string;
                        "write-off"?: string;
                    };
                    /** @description The bank's own account in the ledger (e.g. "1200"), which the journal entries of adjustments are posted against; null for none. Not set by default. */
                    cashAccount?: string | null;
                    /** @description true archives the reconciliation (its periods and sign-offs stay); false restores it. */
                    archived?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        currency: string;
                        bankDatasetIds: string[];
                        ledgerDatasetIds: string[];
                        /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                        ledgerOpeningBalance: string;
                        /** @description A calendar date, YYYY-MM-DD. */
                        ledgerOpeningDate: string;
                        periodMonths: number;
                        ruleIds: string[];
                        /** @description The ledger account each adjustment reason posts to, e.g. {"fee": "6500"}. */
                        adjustmentAccounts: {
                            fee?: string;
                            fx?: string;
                            rounding?: string;
                            "write-off"?: string;
                        };
                        cashAccount: string | null;
                        archived: boolean;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listReconciliationPeriods: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                reconciliationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        periods: {
                            /** @description A calendar date, YYYY-MM-DD. */
                            periodStart: string;
                            /** @description A calendar date, YYYY-MM-DD. */
                            periodEnd: string;
                            state: "open" | "prepared" | "approved";
                            /** @description For an open period, the difference as the data stands (computed for the latest 24 open periods; null beyond, or when the period cannot be stated); for a signed one, the stored statement's. */
                            unexplainedDifference: string | null;
                            preparedBy: string | null;
                            preparedAt: string | null;
                            approvedBy: string | null;
                            approvedAt: string | null;
                            history: {
                                step: "prepare" | "approve" | "reopen";
                                by: string;
                                /** Format: date-time */
                                at: string;
                                note: string | null;
                            }[];
                            /** @description The open exceptions on or before the period end as the data stands now: items neither matched in full, nor set aside, nor resolved by a note (the exceptions queue of the period). */
                            openExceptions: number;
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReconciliationStatement: {
        parameters: {
            query: {
                /** @description The last day of the period, YYYY-MM-DD. */
                periodEnd: string;
            };
            header?: never;
            path: {
                orgId: string;
                reconciliationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        organizationName: string;
                        reconciliation: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            currency: string;
                            bankDatasetNames: string[];
                            ledgerDatasetNames: string[];
                        };
                        /** @description A calendar date, YYYY-MM-DD. */
                        periodStart: string;
                        /** @description A calendar date, YYYY-MM-DD. */
                        periodEnd: string;
                        bankBalance: {
                            /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                            amount: string;
                            /** @description statement: the last imported statement's closing balance on or before the period end (plus later rows); computed: no statement, so the sum of the entries. */
                            source: "statement" | "computed";
                            statementDate: string | null;
                        };
                        ledgerNotInBank: {
                            /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                            total: string;
                            items: {
                                /** Format: uuid */
                                transactionId: string;
                                datasetName: string;
                                /** @description A calendar date, YYYY-MM-DD. */
                                date: string;
                                description: string | null;
                                reference: string | null;
                                /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                                amount: string;
                                /** @description What the line counts: the whole amount when open, the open remainder when partly matched. */
                                countedAmount: string;
                                reason: "open" | "partial" | "matched-after-period-end";
                            }[];
                        };
                        bankNotInLedger: {
                            /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                            total: string;
                            items: {
                                /** Format: uuid */
                                transactionId: string;
                                datasetName: string;
                                /** @description A calendar date, YYYY-MM-DD. */
                                date: string;
                                description: string | null;
                                reference: string | null;
                                /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                                amount: string;
                                /** @description What the line counts: the whole amount when open, the open remainder when partly matched. */
                                countedAmount: string;
                                reason: "open" | "partial" | "matched-after-period-end";
                            }[];
                        };
                        /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                        adjustedBankBalance: string;
                        adjustments: {
                            /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                            total: string;
                            items: {
                                reason: "fee" | "fx" | "rounding" | "write-off";
                                /** @description Bank minus ledger: a fee the bank took is negative. */
                                amount: string;
                                /** @description A calendar date, YYYY-MM-DD. */
                                date: string;
                                description: string;
                                bankReference: string | null;
                                /** Format: uuid */
                                matchGroupId: string;
                            }[];
                        };
                        ledgerBalance: {
                            /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                            amount: string;
                            /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                            openingBalance: string;
                            /** @description A calendar date, YYYY-MM-DD. */
                            openingDate: string;
                        };
                        /** @description adjustedBankBalance − adjustments.total − ledgerBalance.amount; 0.00 to sign off. */
                        unexplainedDifference: string;
                        setApart: {
                            informative: {
                                /** Format: uuid */
                                transactionId: string;
                                datasetName: string;
                                /** @description A calendar date, YYYY-MM-DD. */
                                date: string;
                                description: string | null;
                                reference: string | null;
                                /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                                amount: string;
                                /** @description What the line counts: the whole amount when open, the open remainder when partly matched. */
                                countedAmount: string;
                                reason: "open" | "partial" | "matched-after-period-end";
                            }[];
                            outOfScope: {
                                /** Format: uuid */
                                transactionId: string;
                                datasetName: string;
                                /** @description A calendar date, YYYY-MM-DD. */
                                date: string;
                                description: string | null;
                                reference: string | null;
                                /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                                amount: string;
                                /** @description What the line counts: the whole amount when open, the open remainder when partly matched. */
                                countedAmount: string;
                                reason: "open" | "partial" | "matched-after-period-end";
                            }[];
                        };
                        signOff: {
                            state: "open" | "prepared" | "approved";
                            preparedBy: string | null;
                            preparedAt: string | null;
                            preparerNote: string | null;
                            approvedBy: string | null;
                            approvedAt: string | null;
                        };
                        /**
                         * Format: date-time
                         * @description When the statement was computed; for a signed period, when it was prepared.
                         */
                        computedAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listReconciliationStatementItems: {
        parameters: {
            query: {
                /** @description The last day of the period, YYYY-MM-DD. */
                periodEnd: string;
                /** @description The statement's line: deposits-in-transit and outstanding-payments (the ledger's items not yet in the bank, money in and out), bank-receipts and bank-payments (the bank's items not yet in the ledger), informative and out-of-scope (the rows set apart). */
                line: "deposits-in-transit" | "outstanding-payments" | "bank-receipts" | "bank-payments" | "informative" | "out-of-scope";
                /** @description Items per page; 50 by default. */
                limit?: number | string;
                cursor?: string;
            };
            header?: never;
            path: {
                orgId: string;
                reconciliationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** Format: uuid */
                            transactionId: string;
                            datasetName: string;
                            /** @description A calendar date, YYYY-MM-DD. */
                            date: string;
                            description: string | null;
                            reference: string | null;
                            /** @description A decimal amount as text, exact, e.g. "-1250.00"; money in positive. */
                            amount: string;
                            /** @description What the line counts: the whole amount when open, the open remainder when partly matched. */
                            countedAmount: string;
                            reason: "open" | "partial" | "matched-after-period-end";
                        }[];
                        /** @description How many items the line holds in all. */
                        total: number;
                        nextCursor: string | null;
                        hasMore: boolean;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReconciliationStatementPdf: {
        parameters: {
            query: {
                /** @description The last day of the period, YYYY-MM-DD. */
                periodEnd: string;
            };
            header?: never;
            path: {
                orgId: string;
                reconciliationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReconciliationStatementXlsx: {
        parameters: {
            query: {
                /** @description The last day of the period, YYYY-MM-DD. */
                periodEnd: string;
            };
            header?: never;
            path: {
                orgId: string;
                reconciliationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The XLSX file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReconciliationStatementItemsCsv: {
        parameters: {
            query: {
                /** @description The last day of the period, YYYY-MM-DD. */
                periodEnd: string;
            };
            header?: never;
            path: {
                orgId: string;
                reconciliationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReconciliationJournalEntries: {
        parameters: {
            query: {
                /** @description The last day of the period, YYYY-MM-DD. */
                periodEnd: string;
            };
            header?: never;
            path: {
                orgId: string;
                reconciliationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A calendar date, YYYY-MM-DD. */
                        periodStart: string;
                        /** @description A calendar date, YYYY-MM-DD. */
                        periodEnd: string;
                        state: "open" | "prepared" | "approved";
                        entries: {
                            /** @description ADJ-<period end, YYYYMMDD>-<the entry's place, three digits>, as in the CSV. */
                            journalNumber: string;
                            /** @description A calendar date, YYYY-MM-DD. */
                            date: string;
                            debitAccount: string;
                            creditAccount: string;
                            /** @description A positive decimal amount as text. */
                            amount: string;
                            currency: string;
                            memo: string;
                            reason: "fee" | "fx" | "rounding" | "write-off";
                            bankReference: string | null;
                            /** Format: uuid */
                            matchGroupId: string;
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReconciliationJournalEntriesCsv: {
        parameters: {
            query: {
                /** @description The last day of the period, YYYY-MM-DD. */
                periodEnd: string;
            };
            header?: never;
            path: {
                orgId: string;
                reconciliationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    prepareReconciliationPeriod: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                reconciliationId: string;
                /** @description The last day of the period, YYYY-MM-DD. */
                periodEnd: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The preparer's note, kept with the stored statement. */
                    note: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A calendar date, YYYY-MM-DD. */
                        periodStart: string;
                        /** @description A calendar date, YYYY-MM-DD. */
                        periodEnd: string;
                        state: "open" | "prepared" | "approved";
                        /** @description For an open period, the difference as the data stands (computed for the latest 24 open periods; null beyond, or when the period cannot be stated); for a signed one, the stored statement's. */
                        unexplainedDifference: string | null;
                        preparedBy: string | null;
                        preparedAt: string | null;
                        approvedBy: string | null;
                        approvedAt: string | null;
                        history: {
                            step: "prepare" | "approve" | "reopen";
                            by: string;
                            /** Format: date-time */
                            at: string;
                            note: string | null;
                        }[];
                        /** @description The open exceptions on or before the period end as the data stands now: items neither matched in full, nor set aside, nor resolved by a note (the exceptions queue of the period). */
                        openExceptions: number;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    approveReconciliationPeriod: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                reconciliationId: string;
                /** @description The last day of the period, YYYY-MM-DD. */
                periodEnd: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    note?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A calendar date, YYYY-MM-DD. */
                        periodStart: string;
                        /** @description A calendar date, YYYY-MM-DD. */
                        periodEnd: string;
                        state: "open" | "prepared" | "approved";
                        /** @description For an open period, the difference as the data stands (computed for the latest 24 open periods; null beyond, or when the period cannot be stated); for a signed one, the stored statement's. */
                        unexplainedDifference: string | null;
                        preparedBy: string | null;
                        preparedAt: string | null;
                        approvedBy: string | null;
                        approvedAt: string | null;
                        history: {
                            step: "prepare" | "approve" | "reopen";
                            by: string;
                            /** Format: date-time */
                            at: string;
                            note: string | null;
                        }[];
                        /** @description The open exceptions on or before the period end as the data stands now: items neither matched in full, nor set aside, nor resolved by a note (the exceptions queue of the period). */
                        openExceptions: number;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    reopenReconciliationPeriod: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                reconciliationId: string;
                /** @description The last day of the period, YYYY-MM-DD. */
                periodEnd: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why the period is reopened; kept in the record and the audit trail. */
                    reason: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A calendar date, YYYY-MM-DD. */
                        periodStart: string;
                        /** @description A calendar date, YYYY-MM-DD. */
                        periodEnd: string;
                        state: "open" | "prepared" | "approved";
                        /** @description For an open period, the difference as the data stands (computed for the latest 24 open periods; null beyond, or when the period cannot be stated); for a signed one, the stored statement's. */
                        unexplainedDifference: string | null;
                        preparedBy: string | null;
                        preparedAt: string | null;
                        approvedBy: string | null;
                        approvedAt: string | null;
                        history: {
                            step: "prepare" | "approve" | "reopen";
                            by: string;
                            /** Format: date-time */
                            at: string;
                            note: string | null;
                        }[];
                        /** @description The open exceptions on or before the period end as the data stands now: items neither matched in full, nor set aside, nor resolved by a note (the exceptions queue of the period). */
                        openExceptions: number;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listReconciliationExceptions: {
        parameters: {
            query?: {
                /** @description The last day of the period, YYYY-MM-DD: transactions dated on or before it, and ages counted to it. Today by default. */
                periodEnd?: string;
                /** @description mine: open exceptions of the person signed in; unassigned; overdue: open and past their due date; on-hold; resolved: resolved by a note, a match or an adjustment. Without a view: every open exception. */
                view?: "mine" | "unassigned" | "overdue" | "on-hold" | "resolved";
                /** @description Only exceptions of this age, in days from their date to the period end: 0-7, 8-30, 31-90 or over-90. */
                age?: "0-7" | "8-30" | "31-90" | "over-90";
                /** @description Only exceptions assigned to this user. */
                assignee?: string;
                limit?: number | string;
                /** @description The nextCursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                orgId: string;
                reconciliationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Exception"][];
                        nextCursor: string | null;
                        hasMore: boolean;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAssignees: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Active users of the organization, by name. */
                        people: {
                            /** Format: uuid */
                            id: string;
                            /** @description How the person is named: their e-mail, a user's only name (as exceptions name their assignee). */
                            name: string;
                        }[];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    assignExceptions: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        /** @description What to change of every exception listed (at least one of assigneeUserId, dueDate, holdReason); what is left out stays. */
        requestBody: {
            content: {
                "application/json": {
                    transactionIds: string[];
                    /** @description An active user of the organization; null unassigns. */
                    assigneeUserId?: string | null;
                    /** @description The due date of every exception listed; null clears it. */
                    dueDate?: string | null;
                    /** @description Puts every exception listed on hold with this reason; null takes them off hold. */
                    holdReason?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Exceptions whose assignee changed. */
                        assigned: number;
                        /** @description Exceptions whose due date or hold changed. */
                        updated: number;
                        /** @description Exceptions that had all of it already. */
                        unchanged: number;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getException: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                transactionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An exception with its comment thread. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        transactionId: string;
                        transaction: {
                            /** @description A calendar date, YYYY-MM-DD. */
                            date: string;
                            description: string | null;
                            reference: string | null;
                            amount: string | null;
                            openAmount: string | null;
                            currency: string | null;
                            /** Format: uuid */
                            datasetId: string;
                            datasetName: string;
                            /** @description The dataset's side in its reconciliation; null when it serves none. */
                            side: "bank" | "ledger" | null;
                            reconciliationStatus: string;
                        };
                        /** @description Days from the transaction's date to the period end (or today). */
                        ageDays: number;
                        assignee: {
                            /** Format: uuid */
                            id: string;
                            email: string | null;
                        } | null;
                        dueDate: string | null;
                        /** @description Open and past its due date. */
                        overdue: boolean;
                        holdReason: string | null;
                        /** @description note: resolved by a note; matched or adjustment: the transaction is matched in full (read from its matches, never stored). */
                        resolution: "matched" | "adjustment" | "note" | null;
                        resolutionNote: string | null;
                        resolvedAt: string | null;
                        resolvedBy: string | null;
                        commentCount: number;
                        latestComment: {
                            /** @description The author as the audit trail names actors, e.g. "user:ann@example.com". */
                            author: string;
                            /** @description The author in words: a person's email or an API client's name. */
                            authorName: string;
                            body: string;
                            /** Format: date-time */
                            createdAt: string;
                        } | null;
                        /** @description The thread, oldest first. */
                        comments: components["schemas"]["ExceptionComment"][];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateException: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                transactionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An active user of the organization; null unassigns. */
                    assigneeUserId?: string | null;
                    dueDate?: string | null;
                    /** @description Puts the exception on hold with this reason ("waiting for the invoice"); null takes it off hold. */
                    holdReason?: string | null;
                };
            };
        };
        responses: {
            /** @description An exception with its comment thread. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        transactionId: string;
                        transaction: {
                            /** @description A calendar date, YYYY-MM-DD. */
                            date: string;
                            description: string | null;
                            reference: string | null;
                            amount: string | null;
                            openAmount: string | null;
                            currency: string | null;
                            /** Format: uuid */
                            datasetId: string;
                            datasetName: string;
                            /** @description The dataset's side in its reconciliation; null when it serves none. */
                            side: "bank" | "ledger" | null;
                            reconciliationStatus: string;
                        };
                        /** @description Days from the transaction's date to the period end (or today). */
                        ageDays: number;
                        assignee: {
                            /** Format: uuid */
                            id: string;
                            email: string | null;
                        } | null;
                        dueDate: string | null;
                        /** @description Open and past its due date. */
                        overdue: boolean;
                        holdReason: string | null;
                        /** @description note: resolved by a note; matched or adjustment: the transaction is matched in full (read from its matches, never stored). */
                        resolution: "matched" | "adjustment" | "note" | null;
                        resolutionNote: string | null;
                        resolvedAt: string | null;
                        resolvedBy: string | null;
                        commentCount: number;
                        latestComment: {
                            /** @description The author as the audit trail names actors, e.g. "user:ann@example.com". */
                            author: string;
                            /** @description The author in words: a person's email or an API client's name. */
                            authorName: string;
                            body: string;
                            /** Format: date-time */
                            createdAt: string;
                        } | null;
                        /** @description The thread, oldest first. */
                        comments: components["schemas"]["ExceptionComment"][];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    commentException: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                transactionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                };
            };
        };
        responses: {
            /** @description A comment of an exception. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @description The author as the audit trail names actors, e.g. "user:ann@example.com". */
                        author: string;
                        /** @description The author in words: a person's email or an API client's name. */
                        authorName: string;
                        body: string;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    resolveException: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                transactionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description A match or an adjustment resolves an exception by itself; a note resolves it by hand.
                     * @enum {string}
                     */
                    resolution: "note";
                    /** @description Why nothing more is to be done. */
                    note: string;
                };
            };
        };
        responses: {
            /** @description An exception with its comment thread. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        transactionId: string;
                        transaction: {
                            /** @description A calendar date, YYYY-MM-DD. */
                            date: string;
                            description: string | null;
                            reference: string | null;
                            amount: string | null;
                            openAmount: string | null;
                            currency: string | null;
                            /** Format: uuid */
                            datasetId: string;
                            datasetName: string;
                            /** @description The dataset's side in its reconciliation; null when it serves none. */
                            side: "bank" | "ledger" | null;
                            reconciliationStatus: string;
                        };
                        /** @description Days from the transaction's date to the period end (or today). */
                        ageDays: number;
                        assignee: {
                            /** Format: uuid */
                            id: string;
                            email: string | null;
                        } | null;
                        dueDate: string | null;
                        /** @description Open and past its due date. */
                        overdue: boolean;
                        holdReason: string | null;
                        /** @description note: resolved by a note; matched or adjustment: the transaction is matched in full (read from its matches, never stored). */
                        resolution: "matched" | "adjustment" | "note" | null;
                        resolutionNote: string | null;
                        resolvedAt: string | null;
                        resolvedBy: string | null;
                        commentCount: number;
                        latestComment: {
                            /** @description The author as the audit trail names actors, e.g. "user:ann@example.com". */
                            author: string;
                            /** @description The author in words: a person's email or an API client's name. */
                            authorName: string;
                            body: string;
                            /** Format: date-time */
                            createdAt: string;
                        } | null;
                        /** @description The thread, oldest first. */
                        comments: components["schemas"]["ExceptionComment"][];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    reopenException: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                transactionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why it is reopened; kept in the audit trail. */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description An exception with its comment thread. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        transactionId: string;
                        transaction: {
                            /** @description A calendar date, YYYY-MM-DD. */
                            date: string;
                            description: string | null;
                            reference: string | null;
                            amount: string | null;
                            openAmount: string | null;
                            currency: string | null;
                            /** Format: uuid */
                            datasetId: string;
                            datasetName: string;
                            /** @description The dataset's side in its reconciliation; null when it serves none. */
                            side: "bank" | "ledger" | null;
                            reconciliationStatus: string;
                        };
                        /** @description Days from the transaction's date to the period end (or today). */
                        ageDays: number;
                        assignee: {
                            /** Format: uuid */
                            id: string;
                            email: string | null;
                        } | null;
                        dueDate: string | null;
                        /** @description Open and past its due date. */
                        overdue: boolean;
                        holdReason: string | null;
                        /** @description note: resolved by a note; matched or adjustment: the transaction is matched in full (read from its matches, never stored). */
                        resolution: "matched" | "adjustment" | "note" | null;
                        resolutionNote: string | null;
                        resolvedAt: string | null;
                        resolvedBy: string | null;
                        commentCount: number;
                        latestComment: {
                            /** @description The author as the audit trail names actors, e.g. "user:ann@example.com". */
                            author: string;
                            /** @description The author in words: a person's email or an API client's name. */
                            authorName: string;
                            body: string;
                            /** Format: date-time */
                            createdAt: string;
                        } | null;
                        /** @description The thread, oldest first. */
                        comments: components["schemas"]["ExceptionComment"][];
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listConnections: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Oldest first; at most 50. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        kind: "sftp" | "folder";
                        host: string | null;
                        port: number | null;
                        username: string | null;
                        authMethod: ("generated_key" | "uploaded_key" | "password") | null;
                        /** @description The public half of the key the connection logs in with (an OpenSSH authorized_keys line): hand it to the bank. */
                        publicKey: string | null;
                        /** @description The confirmed host key's fingerprint; null until confirmed. */
                        hostKeyFingerprint: string | null;
                        folderPath: string | null;
                        lastSuccessAt: string | null;
                        /** @description What went wrong the last time a run failed, in words. */
                        lastError: string | null;
                        lastErrorAt: string | null;
                        /** @description Runs failed in a row; 0 after a success. */
                        consecutiveFailures: number;
                        /** @description Since when every run has failed; null after a success. */
                        failingSince: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    }[];
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createConnection: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What the connection is, e.g. "Deutsche Bank SFTP". */
                    name: string;
                    kind: "sftp" | "folder";
                    /** @description The SFTP server's host name or address. */
                    host?: string;
                    /** @description 22 by default. */
                    port?: number;
                    /** @description The user name the bank gave. */
                    username?: string;
                    /** @description generated_key: the service makes an Ed25519 key pair and answers its public half (publicKey) to hand to the bank; uploaded_key: privateKey is sent (OpenSSH or PEM, Ed25519 or RSA, without a passphrase); password: password is sent. */
                    authMethod?: "generated_key" | "uploaded_key" | "password";
                    /** @description The private key (uploaded_key). Sealed at rest, never answered. */
                    privateKey?: string;
                    /** @description The password (password). Sealed at rest, never answered. */
                    password?: string;
                    /** @description A folder connection: the directory, relative to the directory the operator allows (CONNECTOR_FOLDER_ROOT). */
                    folderPath?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        kind: "sftp" | "folder";
                        host: string | null;
                        port: number | null;
                        username: string | null;
                        authMethod: ("generated_key" | "uploaded_key" | "password") | null;
                        /** @description The public half of the key the connection logs in with (an OpenSSH authorized_keys line): hand it to the bank. */
                        publicKey: string | null;
                        /** @description The confirmed host key's fingerprint; null until confirmed. */
                        hostKeyFingerprint: string | null;
                        folderPath: string | null;
                        lastSuccessAt: string | null;
                        /** @description What went wrong the last time a run failed, in words. */
                        lastError: string | null;
                        lastErrorAt: string | null;
                        /** @description Runs failed in a row; 0 after a success. */
                        consecutiveFailures: number;
                        /** @description Since when every run has failed; null after a success. */
                        failingSince: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                connectionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        kind: "sftp" | "folder";
                        host: string | null;
                        port: number | null;
                        username: string | null;
                        authMethod: ("generated_key" | "uploaded_key" | "password") | null;
                        /** @description The public half of the key the connection logs in with (an OpenSSH authorized_keys line): hand it to the bank. */
                        publicKey: string | null;
                        /** @description The confirmed host key's fingerprint; null until confirmed. */
                        hostKeyFingerprint: string | null;
                        folderPath: string | null;
                        lastSuccessAt: string | null;
                        /** @description What went wrong the last time a run failed, in words. */
                        lastError: string | null;
                        lastErrorAt: string | null;
                        /** @description Runs failed in a row; 0 after a success. */
                        consecutiveFailures: number;
                        /** @description Since when every run has failed; null after a success. */
                        failingSince: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteConnection: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                connectionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateConnection: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                connectionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What the connection is, e.g. "Deutsche Bank SFTP". */
                    name?: string;
                    /** @description The SFTP server's host name or address. */
                    host?: string;
                    /** @description 22 by default. */
                    port?: number;
                    /** @description The user name the bank gave. */
                    username?: string;
                    /** @description generated_key: the service makes an Ed25519 key pair and answers its public half (publicKey) to hand to the bank; uploaded_key: privateKey is sent (OpenSSH or PEM, Ed25519 or RSA, without a passphrase); password: password is sent. */
                    authMethod?: "generated_key" | "uploaded_key" | "password";
                    /** @description The private key (uploaded_key). Sealed at rest, never answered. */
                    privateKey?: string;
                    /** @description The password (password). Sealed at rest, never answered. */
                    password?: string;
                    /** @description A folder connection: the directory, relative to the directory the operator allows (CONNECTOR_FOLDER_ROOT). */
                    folderPath?: string;
                    /** @description Confirms the server's host key: the fingerprint the test showed, once checked with the bank (another than the last test saw is refused). From then on a server with another key is refused. null forgets it. */
                    hostKeyFingerprint?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        kind: "sftp" | "folder";
                        host: string | null;
                        port: number | null;
                        username: string | null;
                        authMethod: ("generated_key" | "uploaded_key" | "password") | null;
                        /** @description The public half of the key the connection logs in with (an OpenSSH authorized_keys line): hand it to the bank. */
                        publicKey: string | null;
                        /** @description The confirmed host key's fingerprint; null until confirmed. */
                        hostKeyFingerprint: string | null;
                        folderPath: string | null;
                        lastSuccessAt: string | null;
                        /** @description What went wrong the last time a run failed, in words. */
                        lastError: string | null;
                        lastErrorAt: string | null;
                        /** @description Runs failed in a row; 0 after a success. */
                        consecutiveFailures: number;
                        /** @description Since when every run has failed; null after a success. */
                        failingSince: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    testConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                connectionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether the service logged in and read every pickup folder. */
                        ok: boolean;
                        /** @description The host key the server showed (SFTP). */
                        hostKeyFingerprint: string | null;
                        /** @description unconfirmed: confirm hostKeyFingerprint (PATCH) once checked with the bank; changed: the server shows another key than the confirmed one. */
                        hostKeyStatus: "confirmed" | "unconfirmed" | "changed" | null;
                        /** @description What the test found, in words. */
                        message: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listPickups: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                connectionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Oldest first; at most 20. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        connectionId: string;
                        path: string;
                        pattern: string;
                        /** @description null when the pickup runs at timesOfDay. */
                        intervalMinutes: number | null;
                        /** @description The times of day (HH:MM) in timeZone, in the order of the day; null: every intervalMinutes. */
                        timesOfDay: string[] | null;
                        timeZone: string | null;
                        format: string | null;
                        mappingName: string | null;
                        datasetId: string | null;
                        routeByAccount: boolean;
                        afterImport: "leave" | "move" | "delete";
                        archivePath: string | null;
                        readyMarker: string | null;
                        enabled: boolean;
                        /**
                         * Format: date-time
                         * @description When the schedule runs the pickup next (backed off while the connection fails).
                         */
                        nextRunAt: string;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    }[];
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createPickup: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                connectionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The folder on the server, e.g. /out/camt053 (a folder connection: within its folder). */
                    path: string;
                    /** @description Which files of the folder: a name pattern with * ? and [..], e.g. *.xml. */
                    pattern: string;
                    /** @description How often the folder is looked at, in minutes; or timesOfDay with timeZone. */
                    intervalMinutes?: number;
                    /** @description The times of day the folder is looked at, in timeZone, e.g. ["06:00", "14:30"] (at most 24); instead of intervalMinutes. A time the clock jumps over (summer time begins) runs as late as the jump makes it; a time that happens twice (summer time ends) runs once, the first time. */
                    timesOfDay?: string[] | null;
                    /** @description The time zone of timesOfDay: an IANA name such as Europe/Berlin, or UTC. Given with timesOfDay, and only then. */
                    timeZone?: string | null;
                    /** @description The files' format; null: detected. */
                    format?: ("csv" | "camt.052" | "camt.053" | "camt.054" | "mt940" | "mt942" | "bai2" | "ofx") | null;
                    /** @description A CSV mapping saved on the target dataset, by its name. */
                    mappingName?: string | null;
                    /** @description Where every file goes; or routeByAccount. */
                    datasetId?: string | null;
                    /** @description Each statement goes to the dataset whose accountId is the statement's account; a file of an unknown account is held (reported in each run) until a dataset names it. */
                    routeByAccount?: boolean;
                    /** @description What is done with a file once imported: leave it (default), move it to archivePath, or delete it. */
                    afterImport?: "leave" | "move" | "delete";
                    /** @description Where imported files are moved (afterImport move). */
                    archivePath?: string | null;
                    /** @description A file is taken only once the bank has put its marker beside it: the file name followed by this, e.g. ".done" (statement.xml is taken once statement.xml.done exists). Files ending with it are markers, never imported; after the import the marker is moved or deleted with its file. null (default): a file is taken once its size and time stay the same between two looks. */
                    readyMarker?: string | null;
                    /** @description true by default; false stops the schedule (run now still works). */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        connectionId: string;
                        path: string;
                        pattern: string;
                        /** @description null when the pickup runs at timesOfDay. */
                        intervalMinutes: number | null;
                        /** @description The times of day (HH:MM) in timeZone, in the order of the day; null: every intervalMinutes. */
                        timesOfDay: string[] | null;
                        timeZone: string | null;
                        format: string | null;
                        mappingName: string | null;
                        datasetId: string | null;
                        routeByAccount: boolean;
                        afterImport: "leave" | "move" | "delete";
                        archivePath: string | null;
                        readyMarker: string | null;
                        enabled: boolean;
                        /**
                         * Format: date-time
                         * @description When the schedule runs the pickup next (backed off while the connection fails).
                         */
                        nextRunAt: string;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPickup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                connectionId: string;
                pickupId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        connectionId: string;
                        path: string;
                        pattern: string;
                        /** @description null when the pickup runs at timesOfDay. */
                        intervalMinutes: number | null;
                        /** @description The times of day (HH:MM) in timeZone, in the order of the day; null: every intervalMinutes. */
                        timesOfDay: string[] | null;
                        timeZone: string | null;
                        format: string | null;
                        mappingName: string | null;
                        datasetId: string | null;
                        routeByAccount: boolean;
                        afterImport: "leave" | "move" | "delete";
                        archivePath: string | null;
                        readyMarker: string | null;
                        enabled: boolean;
                        /**
                         * Format: date-time
                         * @description When the schedule runs the pickup next (backed off while the connection fails).
                         */
                        nextRunAt: string;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deletePickup: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                connectionId: string;
                pickupId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updatePickup: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                connectionId: string;
                pickupId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The folder on the server, e.g. /out/camt053 (a folder connection: within its folder). */
                    path?: string;
                    /** @description Which files of the folder: a name pattern with * ? and [..], e.g. *.xml. */
                    pattern?: string;
                    /** @description How often the folder is looked at, in minutes; or timesOfDay with timeZone. */
                    intervalMinutes?: number;
                    /** @description The times of day the folder is looked at, in timeZone, e.g. ["06:00", "14:30"] (at most 24); instead of intervalMinutes. A time the clock jumps over (summer time begins) runs as late as the jump makes it; a time that happens twice (summer time ends) runs once, the first time. */
                    timesOfDay?: string[] | null;
                    /** @description The time zone of timesOfDay: an IANA name such as Europe/Berlin, or UTC. Given with timesOfDay, and only then. */
                    timeZone?: string | null;
                    /** @description The files' format; null: detected. */
                    format?: ("csv" | "camt.052" | "camt.053" | "camt.054" | "mt940" | "mt942" | "bai2" | "ofx") | null;
                    /** @description A CSV mapping saved on the target dataset, by its name. */
                    mappingName?: string | null;
                    /** @description Where every file goes; or routeByAccount. */
                    datasetId?: string | null;
                    /** @description Each statement goes to the dataset whose accountId is the statement's account; a file of an unknown account is held (reported in each run) until a dataset names it. */
                    routeByAccount?: boolean;
                    /** @description What is done with a file once imported: leave it (default), move it to archivePath, or delete it. */
                    afterImport?: "leave" | "move" | "delete";
                    /** @description Where imported files are moved (afterImport move). */
                    archivePath?: string | null;
                    /** @description A file is taken only once the bank has put its marker beside it: the file name followed by this, e.g. ".done" (statement.xml is taken once statement.xml.done exists). Files ending with it are markers, never imported; after the import the marker is moved or deleted with its file. null (default): a file is taken once its size and time stay the same between two looks. */
                    readyMarker?: string | null;
                    /** @description true by default; false stops the schedule (run now still works). */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        connectionId: string;
                        path: string;
                        pattern: string;
                        /** @description null when the pickup runs at timesOfDay. */
                        intervalMinutes: number | null;
                        /** @description The times of day (HH:MM) in timeZone, in the order of the day; null: every intervalMinutes. */
                        timesOfDay: string[] | null;
                        timeZone: string | null;
                        format: string | null;
                        mappingName: string | null;
                        datasetId: string | null;
                        routeByAccount: boolean;
                        afterImport: "leave" | "move" | "delete";
                        archivePath: string | null;
                        readyMarker: string | null;
                        enabled: boolean;
                        /**
                         * Format: date-time
                         * @description When the schedule runs the pickup next (backed off while the connection fails).
                         */
                        nextRunAt: string;
                        /** Format: date-time */
                        createdAt: string;
                        createdBy: string;
                        /** Format: date-time */
                        updatedAt: string;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    runPickup: {
        parameters: {
            query?: never;
            header?: {
                /** @description A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
                connectionId: string;
                pickupId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        pickupId: string;
                        /** Format: uuid */
                        connectionId: string;
                        trigger: "schedule" | "manual";
                        /** @description skipped: another run of the pickup was going on. */
                        status: "queued" | "running" | "completed" | "failed" | "skipped";
                        /** @description Every file of the folder that fits the pattern, with what happened to it. */
                        files: {
                            name: string;
                            sizeBytes: number;
                            /** @description imported (importId: the import); already_imported (these bytes were imported before, importId: that import); held (the target cannot take it now — routing found no dataset, the dataset is gone, the mapping is not saved on it —: message says why and what to do; tried again every run); failed (the file itself was refused; message: the error; importId: the failed import, when one was recorded; the same bytes are not tried again); waiting (the file is new or still being written, or its readyMarker is not there yet). */
                            outcome: "imported" | "already_imported" | "held" | "failed" | "waiting";
                            importId: string | null;
                            datasetId: string | null;
                            message: string | null;
                            afterImport: "left" | "moved" | "deleted" | null;
                        }[];
                        /** @description Why a failed run failed (the connection), in words. */
                        error: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listPickupRuns: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                connectionId: string;
                pickupId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Newest first; the last 50. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        pickupId: string;
                        /** Format: uuid */
                        connectionId: string;
                        trigger: "schedule" | "manual";
                        /** @description skipped: another run of the pickup was going on. */
                        status: "queued" | "running" | "completed" | "failed" | "skipped";
                        /** @description Every file of the folder that fits the pattern, with what happened to it. */
                        files: {
                            name: string;
                            sizeBytes: number;
                            /** @description imported (importId: the import); already_imported (these bytes were imported before, importId: that import); held (the target cannot take it now — routing found no dataset, the dataset is gone, the mapping is not saved on it —: message says why and what to do; tried again every run); failed (the file itself was refused; message: the error; importId: the failed import, when one was recorded; the same bytes are not tried again); waiting (the file is new or still being written, or its readyMarker is not there yet). */
                            outcome: "imported" | "already_imported" | "held" | "failed" | "waiting";
                            importId: string | null;
                            datasetId: string | null;
                            message: string | null;
                            afterImport: "left" | "moved" | "deleted" | null;
                        }[];
                        /** @description Why a failed run failed (the connection), in words. */
                        error: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                    }[];
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPickupRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
                connectionId: string;
                pickupId: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        pickupId: string;
                        /** Format: uuid */
                        connectionId: string;
                        trigger: "schedule" | "manual";
                        /** @description skipped: another run of the pickup was going on. */
                        status: "queued" | "running" | "completed" | "failed" | "skipped";
                        /** @description Every file of the folder that fits the pattern, with what happened to it. */
                        files: {
                            name: string;
                            sizeBytes: number;
                            /** @description imported (importId: the import); already_imported (these bytes were imported before, importId: that import); held (the target cannot take it now — routing found no dataset, the dataset is gone, the mapping is not saved on it —: message says why and what to do; tried again every run); failed (the file itself was refused; message: the error; importId: the failed import, when one was recorded; the same bytes are not tried again); waiting (the file is new or still being written, or its readyMarker is not there yet). */
                            outcome: "imported" | "already_imported" | "held" | "failed" | "waiting";
                            importId: string | null;
                            datasetId: string | null;
                            message: string | null;
                            afterImport: "left" | "moved" | "deleted" | null;
                        }[];
                        /** @description Why a failed run failed (the connection), in words. */
                        error: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                    };
                };
            };
            /** @description Every error of the /v1/api operations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error of the /v1/api operations. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
