# The a2aport gateway: docker build -t a2aport . && docker run -v $PWD/gateway.yaml:/etc/a2aport/gateway.yaml -p 8090:8090 a2aport
# Not built on the project's machine (no Docker engine); see docs/gateway.md.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /a2aport ./cmd/a2aport

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /a2aport /a2aport
USER nonroot
EXPOSE 8090
ENTRYPOINT ["/a2aport", "gateway", "--config", "/etc/a2aport/gateway.yaml", "--listen", "0.0.0.0:8090"]
