# The notes server's image, built by GoReleaser (dockers_v2 in
# deploy/goreleaser.yaml), which puts each platform's binary in the context
# under its platform's name. The server speaks MCP on stdio; NOTES_DIR, if
# set, is a folder in the container (mount a volume there).
FROM scratch
ARG TARGETPLATFORM
COPY $TARGETPLATFORM/notes /notes
ENTRYPOINT ["/notes"]
